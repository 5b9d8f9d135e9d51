import { installmentCents, MAX_INSTALLMENTS, MIN_INSTALLMENT_VALUE, toCents } from '@ticketing/proto';
import { invalid, notFound } from './api-error.ts';
import type { PaymentLedger } from './payments.ts';
import { nextId, type Route, type Store } from './store.ts';
import type { SandboxInstallment, SandboxPayment } from './types.ts';
import { addMonths, brasiliaToday, listOf, reais } from './values.ts';

const MIN_CENTS = toCents(MIN_INSTALLMENT_VALUE);

/** Installments (`ins_…`): a purchase split into monthly payments of one customer. */
export interface InstallmentBook {
  find(id: string): SandboxInstallment;
  /** Its payments, first to last. */
  paymentsOf(id: string): SandboxPayment[];
  /** `POST /payments` with `installmentCount`: answers the first installment's payment. */
  create(body: Record<string, unknown>): SandboxPayment;
}

/** The total asked for, in cents: `totalValue`, or `installmentValue` times the count; null when neither is usable. */
function totalCents(body: Record<string, unknown>, count: number): number | null {
  const positive = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0;
  if (positive(body.totalValue)) return Math.round(body.totalValue * 100);
  if (positive(body.installmentValue)) return Math.round(body.installmentValue * 100) * count;
  return null;
}

export function installmentBook(store: Store, ledger: PaymentLedger): InstallmentBook {
  function find(id: string): SandboxInstallment {
    const found = store.installments.get(id);
    if (!found) throw notFound();
    return found;
  }

  function create(body: Record<string, unknown>): SandboxPayment {
    const terms = ledger.terms(body);
    if (terms.billingType !== 'CREDIT_CARD' && terms.billingType !== 'BOLETO') {
      throw invalid('invalid_billingType', 'O parcelamento só é possível no cartão de crédito ou no boleto.');
    }
    const count = body.installmentCount;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 2 || count > MAX_INSTALLMENTS) {
      throw invalid('invalid_installmentCount', `O número de parcelas deve ser de 2 a ${MAX_INSTALLMENTS}.`);
    }
    const total = totalCents(body, count);
    if (total === null) throw invalid('invalid_value', 'Informe o valor total ou o valor de cada parcela.');
    if (total < MIN_CENTS * count) {
      throw invalid('invalid_installmentCount', 'O valor de cada parcela deve ser de pelo menos R$ 5,00.');
    }
    // Each gets the total split evenly; the last takes what the rounding left, so they add up to the total.
    const share = installmentCents(total, count);
    const id = nextId(store, 'ins');
    const payments = Array.from({ length: count }, (_, i) =>
      ledger.open(
        {
          ...terms,
          dueDate: addMonths(terms.dueDate, i),
          description: `Parcela ${i + 1} de ${count}.${terms.description ? ` ${terms.description}` : ''}`,
        },
        i === count - 1 ? total - share * (count - 1) : share,
        { installment: id, installmentNumber: i + 1, installmentCount: count },
      ),
    );
    store.installmentPayments.set(id, payments);
    store.installments.set(id, {
      object: 'installment',
      id,
      value: reais(total),
      netValue: reais(payments.reduce((sum, payment) => sum + Math.round(payment.netValue * 100), 0)),
      paymentValue: reais(share),
      installmentCount: count,
      billingType: terms.billingType,
      paymentDate: null,
      description: terms.description,
      expirationDay: Number(terms.dueDate.slice(8)),
      dateCreated: brasiliaToday(),
      customer: terms.customer,
      paymentLink: null,
      transactionReceiptUrl: null,
      chargeback: null,
      refunds: null,
      deleted: false,
    });
    return payments[0]!;
  }

  return { find, paymentsOf: (id) => store.installmentPayments.get(id) ?? [], create };
}

/** `GET /installments/:id` and its payments (its refund is among the refunds). */
export const installmentRoutes = (book: InstallmentBook): Route[] => [
  ['GET', /^\/installments\/([^/]+)$/, ([id]) => book.find(id!)],
  ['GET', /^\/installments\/([^/]+)\/payments$/, ([id], query) => listOf(book.paymentsOf(book.find(id!).id), query)],
];
