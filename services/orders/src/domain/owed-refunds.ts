import { CollaboratorError } from '@ticketing/platform';
import { listOwedRefunds } from '../data/orders-repository.ts';
import type { OrdersDeps } from './order.ts';
import { settleOwedRefund } from './payment-events.ts';

/**
 * Asks payments to give back every late payment still owed (`refund_owed_since`), then settles each one it did:
 * the debt is cleared and order.refunded written (mail tells the buyer the money went back). The call is made
 * outside any transaction and repeating it is safe (payments answers a refunded charge again), so a failure or a
 * crash anywhere leaves the refund owed and the next round asks again. Answers the orders settled.
 */
export async function sendOwedRefunds(
  deps: Pick<OrdersDeps, 'db' | 'outbox' | 'logger' | 'payments'>,
  { batchSize = 100 }: { batchSize?: number } = {},
): Promise<string[]> {
  const settled: string[] = [];
  for (const orderId of await listOwedRefunds(deps.db, batchSize)) {
    try {
      await deps.payments.refund(orderId);
    } catch (error) {
      // Down or busy is the moment; a refusal needs someone to look, and the refund stays owed meanwhile.
      const refused =
        error instanceof CollaboratorError && error.status !== null && error.status < 500 && error.status !== 429;
      const fields = { orderId, err: error };
      if (refused) deps.logger.error(fields, 'refund refused by payments; still owed');
      else deps.logger.warn(fields, 'refund not done yet; retrying later');
      continue;
    }
    if (await deps.db.transaction((trx) => settleOwedRefund(deps, trx, orderId))) settled.push(orderId);
  }
  return settled;
}
