import { CollaboratorError } from '@ticketing/platform';
import { listOwedRefunds } from '../data/orders-repository.ts';
import type { OrdersDeps } from './order.ts';
import { settleOwedRefund } from './payment-events.ts';

type Deps = Pick<OrdersDeps, 'db' | 'outbox' | 'logger' | 'payments'>;

/**
 * Asks payments to give back the money an order is owed (`refund_owed_since`: a late payment, an administrator's
 * refund, a withdrawal), then settles it: the debt is cleared and order.refunded written (tickets cancels the ticket,
 * catalog frees the spot, mail tells the buyer). The call is made outside any transaction and repeating it is safe
 * (payments answers a refunded charge again), so a failure or a crash anywhere leaves the refund owed and the next
 * round asks again. True when this call settled it.
 */
export async function sendOwedRefund(deps: Deps, orderId: string): Promise<boolean> {
  try {
    await deps.payments.refund(orderId);
  } catch (error) {
    // Down or busy is the moment; a refusal needs someone to look, and the refund stays owed meanwhile.
    const refused = error instanceof CollaboratorError && error.refused && error.status !== 429;
    const fields = { orderId, err: error };
    if (refused) deps.logger.error(fields, 'refund refused by payments; still owed');
    else deps.logger.warn(fields, 'refund not done yet; retrying later');
    return false;
  }
  return deps.db.transaction((trx) => settleOwedRefund(deps, trx, orderId));
}

/**
 * Asks payments, one order after the other, for refunds just recorded as owed; any not settled now (payments or the
 * database failing) stays owed for the retry job.
 */
export async function sendOwedRefundsOf(deps: Deps, orderIds: string[]): Promise<void> {
  for (const orderId of orderIds) {
    try {
      await sendOwedRefund(deps, orderId);
    } catch (error) {
      deps.logger.warn({ orderId, err: error }, 'refund not done yet; retrying later');
    }
  }
}

/** One round of the retry job: every refund still owed, longest waiting first. Answers the orders settled. */
export async function sendOwedRefunds(deps: Deps, { batchSize = 100 }: { batchSize?: number } = {}): Promise<string[]> {
  const settled: string[] = [];
  for (const orderId of await listOwedRefunds(deps.db, batchSize)) {
    if (await sendOwedRefund(deps, orderId)) settled.push(orderId);
  }
  return settled;
}
