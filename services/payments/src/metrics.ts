import type { Metrics } from '@ticketing/platform';
import { Counter } from 'prom-client';

/** The payments service's own metrics, on the service's registry next to the HTTP and bus ones. */
export function createPaymentsMetrics(registry: Metrics['registry']) {
  return {
    mismatches: new Counter({
      name: 'payments_mismatch_total',
      help: 'Provider payments that did not match their charge (another order, another value), by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    refundsRefused: new Counter({
      name: 'payments_refunds_refused_total',
      help: 'Refunds the provider refused (not enough balance, too late…), by payment method',
      labelNames: ['method'],
      registers: [registry],
    }),
    invoicesFailed: new Counter({
      name: 'payments_invoices_failed_total',
      help: 'Notas fiscais the provider or the city refused, or whose cancellation was refused',
      registers: [registry],
    }),
  };
}

export type PaymentsMetrics = ReturnType<typeof createPaymentsMetrics>;
