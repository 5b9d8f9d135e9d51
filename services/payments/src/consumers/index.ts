import type { EventHandlers, Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { requestChargeDeletion } from '../domain/cancellation.ts';
import type { PaymentsDeps } from '../domain/charge.ts';

/** Orders that will not be paid any more: their pending charge is deleted at the provider by the deletion job. */
export function paymentsConsumers(deps: PaymentsDeps, deletions: { wake(): void }): EventHandlers {
  async function drop(
    trx: Knex.Transaction,
    order: EventPayload<'order.cancelled'>,
    reason: Parameters<typeof requestChargeDeletion>[3],
  ) {
    if (!(await requestChargeDeletion(deps, trx, order, reason))) return;
    // The job must see the request, so it is woken once this transaction has committed.
    trx.executionPromise.then(
      () => deletions.wake(),
      () => {},
    );
  }
  return {
    'order.cancelled': (payload: EventPayload<'order.cancelled'>, { trx }) => drop(trx, payload, 'order.cancelled'),
    'order.expired': (payload: EventPayload<'order.expired'>, { trx }) => drop(trx, payload, 'order.expired'),
  };
}
