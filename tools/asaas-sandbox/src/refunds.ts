import { randomBytes } from 'node:crypto';
import { invalid } from './api-error.ts';
import type { InstallmentBook } from './installments.ts';
import type { PaymentLedger } from './payments.ts';
import type { Route, Store } from './store.ts';
import type { SandboxPayment } from './types.ts';
import { brasiliaNow, reais } from './values.ts';

export const refundMessages = {
  notPaid: 'Somente cobranças recebidas ou confirmadas podem ser estornadas.',
  boleto: 'Para estornar cobranças pagas por boleto utilize o estorno de boleto.',
  notBoleto: 'O estorno de boleto só é possível para cobranças pagas por boleto.',
  nonePaid: 'Nenhuma parcela deste parcelamento foi paga.',
} as const;

/**
 * The refunds, as Asaas takes them: a card or PIX payment at once; a paid boleto through the payer's bank account,
 * given on a page of the provider (`requestUrl`); an installment's paid payments all together. While the store's
 * `refundRefusal` is set, the provider refuses every one of them.
 */
export function refundRoutes(store: Store, ledger: PaymentLedger, installments: InstallmentBook): Route[] {
  function refusedByProvider(): void {
    if (store.faults.refundRefusal) throw invalid('invalid_action', store.faults.refundRefusal);
  }

  function paid(payment: SandboxPayment): SandboxPayment {
    if (!ledger.isPaid(payment)) throw invalid('invalid_action', refundMessages.notPaid);
    return payment;
  }

  return [
    [
      'POST',
      /^\/payments\/([^/]+)\/refund$/,
      ([id]) => {
        const target = ledger.find(id!);
        refusedByProvider();
        if (paid(target).billingType === 'BOLETO') throw invalid('invalid_action', refundMessages.boleto);
        return ledger.refunded(target);
      },
    ],
    [
      'POST',
      /^\/payments\/([^/]+)\/bankSlip\/refund$/,
      ([id]) => {
        const target = ledger.find(id!);
        refusedByProvider();
        if (target.billingType !== 'BOLETO') throw invalid('invalid_action', refundMessages.notBoleto);
        paid(target);
        const { byToken, byPayment } = store.bankSlipRefunds;
        let token = byPayment.get(target.id);
        if (!token) {
          token = randomBytes(16).toString('hex');
          byToken.set(token, target.id);
          byPayment.set(target.id, token);
        }
        return { requestUrl: `${store.publicUrl}/estorno-boleto/${token}` };
      },
    ],
    [
      'POST',
      /^\/installments\/([^/]+)\/refund$/,
      ([id]) => {
        const installment = installments.find(id!);
        refusedByProvider();
        const refundable = installments.paymentsOf(installment.id).filter(ledger.isPaid);
        if (refundable.length === 0) throw invalid('invalid_action', refundMessages.nonePaid);
        if (installment.billingType === 'BOLETO') throw invalid('invalid_action', refundMessages.boleto);
        for (const payment of refundable) ledger.refunded(payment);
        const cents = refundable.reduce((sum, payment) => sum + Math.round(payment.value * 100), 0);
        installment.refunds = [{ dateCreated: brasiliaNow(), status: 'DONE', value: reais(cents) }];
        return installment;
      },
    ],
  ];
}
