import type { EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { dropChargeOfOrder } from '../domain/cancellation.ts';
import type { PaymentsDeps } from '../domain/charge.ts';

/** Orders that will not be paid any more: their pending charge is deleted at the provider. */
export function paymentsConsumers(deps: PaymentsDeps): EventHandlers {
  return {
    'order.cancelled': (payload: EventPayload<'order.cancelled'>, { trx }) =>
      dropChargeOfOrder(deps, trx, payload, 'order.cancelled'),
    'order.expired': (payload: EventPayload<'order.expired'>, { trx }) =>
      dropChargeOfOrder(deps, trx, payload, 'order.expired'),
  };
}
