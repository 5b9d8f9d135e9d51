import { CollaboratorError, conflict, notFound } from '@ticketing/platform';
import { paymentsMessages, type ChargeRefundAnswer } from '@ticketing/proto';
import {
  clearRefundRefusal,
  findOrder,
  listOwedRefunds,
  listRefusedRefunds,
  recordRefundRefusal,
} from '../data/orders-repository.ts';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { settleOwedRefund } from './payment-events.ts';

type Deps = Pick<OrdersDeps, 'db' | 'outbox' | 'logger' | 'payments'>;

/**
 * Asks payments to give back the money an order is owed (`refund_owed_since`: a late payment, an administrator's
 * refund, a withdrawal), then settles it: the debt is cleared and order.refunded written (tickets cancels the ticket,
 * catalog frees the spot, mail tells the buyer; a boleto's carries the page where the payer gives a bank account).
 * The call is made outside any transaction and repeating it is safe (payments answers a refunded charge again), so
 * an outage or a crash anywhere leaves the refund owed and the next round asks again. The provider refusing it is
 * kept on the order (its words, on the timeline too): asking again the same way gets the same refusal, so the retry
 * job leaves it to an administrator. True when this call settled it.
 */
export async function sendOwedRefund(deps: Deps, orderId: string): Promise<boolean> {
  let answer: ChargeRefundAnswer;
  try {
    answer = await deps.payments.refund(orderId);
  } catch (error) {
    const fields = { orderId, err: error };
    if (error instanceof CollaboratorError && error.status === 422) {
      deps.logger.error(fields, 'refund refused by the provider; waiting for an administrator');
      await deps.db.transaction((trx) => recordRefundRefusal(trx, orderId, providerWords(error.message)));
    } else if (error instanceof CollaboratorError && error.refused && error.status !== 429) {
      deps.logger.error(fields, 'refund refused by payments; still owed');
    } else {
      deps.logger.warn(fields, 'refund not done yet; retrying later');
    }
    return false;
  }
  const { refund } = answer;
  const bankDetailsUrl = refund.status === 'awaiting_bank_details' ? refund.bankDetailsUrl : null;
  return deps.db.transaction((trx) => settleOwedRefund(deps, trx, orderId, bankDetailsUrl));
}

const REFUSED_PREFIX = paymentsMessages.refundRefused('');

/** The provider's own words in payments' refusal ('O provedor de pagamentos recusou o estorno: <words>'). */
const providerWords = (said: string) => (said.startsWith(REFUSED_PREFIX) ? said.slice(REFUSED_PREFIX.length) : said);

/** Refunds the provider refused, oldest first, for an administrator (at most 200). */
export const refusedRefunds = (deps: Pick<OrdersDeps, 'db'>): Promise<Order[]> => listRefusedRefunds(deps.db, 200);

/**
 * An administrator tries a refused refund again: the refusal is cleared and payments asked at once (refused again,
 * it is recorded again). 409 when the order has no refused refund.
 */
export async function retryRefusedRefund(deps: Deps, orderId: string, adminId: string): Promise<void> {
  if (!(await findOrder(deps.db, orderId))) throw notFound(messages.orderNotFound);
  const cleared = await deps.db.transaction((trx) => clearRefundRefusal(trx, orderId));
  if (!cleared) throw conflict(messages.noRefusedRefund);
  deps.logger.info({ orderId, requestedBy: adminId }, 'refused refund retried');
  await sendOwedRefund(deps, orderId);
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
