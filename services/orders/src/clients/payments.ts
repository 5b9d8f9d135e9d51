import { jsonClient, type Caller } from '@ticketing/platform';
import {
  chargeListSchema,
  chargeStatusViewSchema,
  chargeViewSchema,
  type ChargeRequest,
  type ChargeStatusView,
  type ChargeView,
} from '@ticketing/proto';

/** Payments as orders uses it: one provider charge per order, keyed by the order id. */
export interface PaymentsClient {
  /** Creates the order's charge, or answers the one it already has. */
  createCharge(orderId: string, request: ChargeRequest): Promise<ChargeView>;
  /** How to pay each order named that has a charge (none asked of the provider), by order id. */
  findCharges(orderIds: string[]): Promise<Map<string, ChargeView>>;
  /** Asks the provider once; a paid charge also publishes payment.confirmed by itself. */
  checkCharge(orderId: string): Promise<ChargeStatusView>;
  /** Gives the money of a paid charge back. */
  refund(orderId: string): Promise<void>;
}

/** `chargeTimeoutMs` bounds creating a charge, which may wait its turn at the provider; `timeoutMs` the other calls. */
export function paymentsClient(
  baseUrl: string,
  timeoutMs: number,
  caller: Caller,
  chargeTimeoutMs = timeoutMs,
): PaymentsClient {
  const http = jsonClient('payments', baseUrl, timeoutMs, caller);
  const charging = jsonClient('payments', baseUrl, chargeTimeoutMs, caller);
  const path = (orderId: string) => `/internal/charges/${encodeURIComponent(orderId)}`;
  return {
    createCharge: (orderId, request) => charging.call('PUT', path(orderId), chargeViewSchema, request),
    async findCharges(orderIds) {
      const query = `?orderIds=${orderIds.map(encodeURIComponent).join(',')}`;
      const { charges } = await http.call('GET', `/internal/charges${query}`, chargeListSchema);
      return new Map(charges.map(({ orderId, ...charge }) => [orderId, charge]));
    },
    checkCharge: (orderId) => http.call('POST', `${path(orderId)}/check`, chargeStatusViewSchema),
    async refund(orderId) {
      await http.call('POST', `${path(orderId)}/refund`, chargeStatusViewSchema);
    },
  };
}
