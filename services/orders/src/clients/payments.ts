import { jsonClient, type ServiceAuth } from '@ticketing/platform';
import type { ChargeRequest, ChargeStatusView, ChargeView } from '@ticketing/proto';

/** Payments as orders uses it: one provider charge per order, keyed by the order id. */
export interface PaymentsClient {
  /** Creates the order's charge, or answers the one it already has. */
  createCharge(orderId: string, request: ChargeRequest): Promise<ChargeView>;
  /** Asks the provider once; a paid charge also publishes payment.confirmed by itself. */
  checkCharge(orderId: string): Promise<ChargeStatusView>;
  /** Gives the money of a paid charge back. */
  refund(orderId: string): Promise<void>;
}

/** `chargeTimeoutMs` bounds creating a charge, which may wait its turn at the provider; `timeoutMs` the other calls. */
export function paymentsClient(
  baseUrl: string,
  timeoutMs: number,
  auth: ServiceAuth,
  chargeTimeoutMs = timeoutMs,
): PaymentsClient {
  const http = jsonClient('payments', baseUrl, timeoutMs, auth);
  const charging = jsonClient('payments', baseUrl, chargeTimeoutMs, auth);
  const path = (orderId: string) => `/internal/charges/${encodeURIComponent(orderId)}`;
  return {
    createCharge: (orderId, request) => charging.call<ChargeView>('PUT', path(orderId), request),
    checkCharge: (orderId) => http.call<ChargeStatusView>('POST', `${path(orderId)}/check`),
    async refund(orderId) {
      await http.call('POST', `${path(orderId)}/refund`);
    },
  };
}
