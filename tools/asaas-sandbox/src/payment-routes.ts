import { qrCodePng } from '@ticketing/platform';
import { invalid } from './api-error.ts';
import { buildBrCode } from './brcode.ts';
import type { InstallmentBook } from './installments.ts';
import type { PaymentLedger } from './payments.ts';
import type { Route, Store } from './store.ts';
import { listOf } from './values.ts';

export interface PixAccount {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
}

/**
 * `/payments`: create (single, or an installment's with `installmentCount`), list, read, status, delete, and how to
 * pay one (PIX code, boleto's line). Refunds are in `refunds.ts`.
 */
export function paymentRoutes(
  store: Store,
  ledger: PaymentLedger,
  installments: InstallmentBook,
  pix: PixAccount,
): Route[] {
  return [
    [
      'POST',
      /^\/payments$/,
      (_, __, body) => (body.installmentCount === undefined ? ledger.create(body) : installments.create(body)),
    ],
    [
      'GET',
      /^\/payments$/,
      (_, query) =>
        listOf(
          (query.installment ? installments.paymentsOf(query.installment) : [...store.payments.values()]).filter(
            (item) =>
              !item.deleted &&
              (!query.externalReference || item.externalReference === query.externalReference) &&
              (!query.status || item.status === query.status) &&
              (!query.customer || item.customer === query.customer) &&
              (!query.billingType || item.billingType === query.billingType),
          ),
          query,
        ),
    ],
    ['GET', /^\/payments\/([^/]+)$/, ([id]) => ledger.find(id!)],
    ['GET', /^\/payments\/([^/]+)\/status$/, ([id]) => ({ status: ledger.find(id!).status })],
    ['DELETE', /^\/payments\/([^/]+)$/, ([id]) => ledger.remove(id!)],
    [
      'GET',
      /^\/payments\/([^/]+)\/pixQrCode$/,
      ([id]) => {
        const target = ledger.find(id!);
        if (target.billingType === 'CREDIT_CARD') {
          throw invalid('invalid_billingType', 'Esta cobrança não aceita pagamento por Pix.');
        }
        const payload = buildBrCode({
          ...pix,
          amountCents: Math.round(target.value * 100),
          txid: target.id.replace('pay_', '').toUpperCase(),
        });
        return {
          // A valid code with a fixed mask: choosing the surest one is the real provider's work, on its machines.
          encodedImage: qrCodePng(payload, { scale: 8, margin: 4, maskPattern: 0 }).toString('base64'),
          payload,
          expirationDate: `${target.dueDate} 23:59:59`,
        };
      },
    ],
    [
      'GET',
      /^\/payments\/([^/]+)\/identificationField$/,
      ([id]) => {
        ledger.find(id!);
        const slip = store.slips.get(id!);
        if (!slip) throw invalid('invalid_billingType', 'Esta cobrança não é um boleto.');
        return slip;
      },
    ],
  ];
}
