import { jsonClient, type Caller } from '@ticketing/platform';
import {
  chargeListSchema,
  chargeRefundAnswerSchema,
  chargeStatusViewSchema,
  chargeViewSchema,
  type ChargeList,
  type ChargeRefundAnswer,
  type ChargeRequest,
  type ChargeStatusView,
  type ChargeView,
} from '@ticketing/proto';

/** An order's charge as payments lists it: how to pay it, its installments, its nota fiscal and its refund. */
export type ListedCharge = Omit<ChargeList['charges'][number], 'orderId'>;

/** Payments as orders uses it: one provider charge per order, keyed by the order id. */
export interface PaymentsClient {
  /** Creates the order's charge, or answers the one it already has. */
  createCharge(orderId: string, request: ChargeRequest): Promise<ChargeView>;
  /** Each order named that has a charge (none asked of the provider), by order id. */
  findCharges(orderIds: string[]): Promise<Map<string, ListedCharge>>;
  /** Asks the provider once; a paid charge also publishes payment.confirmed by itself. */
  checkCharge(orderId: string): Promise<ChargeStatusView>;
  /**
   * Gives the money of a paid charge back, answering how the provider took it (a boleto's waits for the payer's bank
   * details). A provider's refusal is thrown (422, in payments' words).
   */
  refund(orderId: string): Promise<ChargeRefundAnswer>;
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
    refund: (orderId) => http.call('POST', `${path(orderId)}/refund`, chargeRefundAnswerSchema),
  };
}
