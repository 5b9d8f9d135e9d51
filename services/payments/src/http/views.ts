import type { ChargeStatusView, ChargeView } from '@ticketing/proto';
import type { Charge } from '../domain/charge.ts';
import type { ChargeStatus } from '../domain/charges.ts';

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
