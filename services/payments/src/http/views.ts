import type { ChargeList, ChargeRefundAnswer, ChargeStatusView, ChargeView, InvoiceRow } from '@ticketing/proto';
import type { Invoice } from '../data/invoices-repository.ts';
import { refundViewOf, type Charge } from '../domain/charge.ts';
import type { ChargeRefund, ChargeStatus } from '../domain/charges.ts';

export const toChargeView = (charge: Charge): ChargeView => ({
  paymentId: charge.paymentId,
  providerStatus: charge.providerStatus,
  pixQrCode: charge.pixQrCode,
  pixPayload: charge.pixPayload,
  boletoUrl: charge.boletoUrl,
  boletoLine: charge.boletoLine,
  invoiceUrl: charge.invoiceUrl,
});

export const toChargeStatusView = ({ charge, providerStatus }: ChargeStatus): ChargeStatusView => ({
  paymentId: charge.paymentId,
  providerStatus,
  paid: charge.status === 'paid',
});

export const toChargeRefundAnswer = (refund: ChargeRefund): ChargeRefundAnswer => ({
  ...toChargeStatusView(refund),
  refund: refund.refund,
});

/** A charge as the order answered again shows it: how to pay, in how many installments, its note and its refund. */
export const toChargeListItem = (charge: Charge, invoice: Invoice | undefined): ChargeList['charges'][number] => ({
  orderId: charge.orderId,
  ...toChargeView(charge),
  installments: charge.installmentCount,
  invoice: invoice ? { status: invoice.status, pdfUrl: invoice.pdfUrl } : null,
  refund: refundViewOf(charge),
});

export const toInvoiceRow = (invoice: Invoice & { orderNumber: string | null }): InvoiceRow => ({
  orderId: invoice.orderId,
  orderNumber: invoice.orderNumber,
  invoiceId: invoice.invoiceId,
  status: invoice.status,
  reason: invoice.reason,
  value: invoice.value,
  updatedAt: invoice.updatedAt.toISOString(),
});
