import { randomBytes } from 'node:crypto';
import { invalid, notFound } from './api-error.ts';
import { barCode, identificationField } from './boleto.ts';
import type { Store } from './store.ts';
import type { BillingType, SandboxPayment } from './types.ts';
import { brasiliaNow, brasiliaToday, isDate, reais } from './values.ts';
import type { Webhooks } from './webhooks.ts';

const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
const PAYABLE = ['PENDING', 'OVERDUE'];
const BILLING_TYPES = new Set<string>(['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED']);
/** What the provider keeps of each payment, as the sandbox tells it: R$ 0,99. */
const FEE_CENTS = 99;

/** What every new payment is checked for and made of, single or one of an installment's. */
export interface PaymentTerms {
  customer: string;
  billingType: BillingType;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
}

/** What marks a payment as one of an installment's. */
export type InstallmentPart = Pick<SandboxPayment, 'installment' | 'installmentNumber' | 'installmentCount'>;

/** A payment's life at the provider: what the API, the control routes and the hosted pages do to it. */
export interface PaymentLedger {
  find(id: string): SandboxPayment;
  /** Checks a new payment's customer, billing type, due date and description, stopping at the first error. */
  terms(body: Record<string, unknown>): PaymentTerms;
  /** `POST /payments` without installments. */
  create(body: Record<string, unknown>): SandboxPayment;
  /** Keeps a new payment of `cents` (with its boleto when it has one) and sends PAYMENT_CREATED. */
  open(terms: PaymentTerms, cents: number, part?: InstallmentPart): SandboxPayment;
  /**
   * Marks the payment paid (CONFIRMED for cards, RECEIVED otherwise) and sends the webhook; paying one payment of a
   * card installment pays them all (the card is charged for the whole purchase).
   */
  confirm(id: string): SandboxPayment;
  overdue(id: string): SandboxPayment;
  /** The card holder disputes a paid payment: CHARGEBACK_REQUESTED and its webhook. */
  chargeback(id: string): SandboxPayment;
  remove(id: string): { deleted: true; id: string };
  isPaid(payment: SandboxPayment): boolean;
  /** The money went back: REFUNDED and its webhook. */
  refunded(payment: SandboxPayment): SandboxPayment;
}

export function paymentLedger(store: Store, { emit }: Pick<Webhooks, 'emit'>, bankCode: string): PaymentLedger {
  function find(id: string): SandboxPayment {
    const found = store.payments.get(id);
    if (!found) throw notFound();
    return found;
  }

  function terms(body: Record<string, unknown>): PaymentTerms {
    const customer = typeof body.customer === 'string' ? store.customers.get(body.customer) : undefined;
    if (!customer || customer.deleted) throw invalid('invalid_customer', 'Customer inválido ou não informado.');
    if (typeof body.billingType !== 'string' || !BILLING_TYPES.has(body.billingType)) {
      throw invalid('invalid_billingType', 'Informe uma forma de pagamento válida.');
    }
    if (!isDate(body.dueDate)) throw invalid('invalid_dueDate', 'A data de vencimento informada é inválida.');
    if (body.dueDate < brasiliaToday()) {
      throw invalid('invalid_dueDate', 'A data de vencimento não pode ser anterior à data atual.');
    }
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 500)) {
      throw invalid('invalid_description', 'A descrição deve ter no máximo 500 caracteres.');
    }
    return {
      customer: customer.id,
      billingType: body.billingType as BillingType,
      dueDate: body.dueDate,
      description: (body.description as string | undefined) ?? null,
      externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
    };
  }

  function create(body: Record<string, unknown>): SandboxPayment {
    const checked = terms(body);
    if (typeof body.value !== 'number' || !Number.isFinite(body.value) || body.value <= 0) {
      throw invalid('invalid_value', 'O valor da cobrança deve ser maior que zero.');
    }
    return open(checked, Math.round(body.value * 100));
  }

  function open(
    { customer, billingType, dueDate, description, externalReference }: PaymentTerms,
    cents: number,
    part: InstallmentPart = {},
  ): SandboxPayment {
    const id = `pay_${randomBytes(8).toString('hex')}`;
    const { publicUrl } = store;
    const created: SandboxPayment = {
      object: 'payment',
      id,
      dateCreated: brasiliaToday(),
      customer,
      value: reais(cents),
      netValue: reais(Math.max(0, cents - FEE_CENTS)),
      description,
      billingType,
      status: 'PENDING',
      dueDate,
      originalDueDate: dueDate,
      paymentDate: null,
      clientPaymentDate: null,
      confirmedDate: null,
      invoiceUrl: `${publicUrl}/i/${id}`,
      invoiceNumber: String(store.sequence + 1000000),
      bankSlipUrl: billingType === 'BOLETO' || billingType === 'UNDEFINED' ? `${publicUrl}/b/${id}` : null,
      externalReference,
      deleted: false,
      refunds: null,
      ...part,
    };
    store.sequence++;
    if (created.bankSlipUrl) {
      const nossoNumero = String(store.sequence).padStart(12, '0');
      const code = barCode({
        bank: bankCode,
        dueDate: created.dueDate,
        amountCents: cents,
        freeField: `0000011234567${nossoNumero}`,
      });
      store.slips.set(id, { nossoNumero, barCode: code, identificationField: identificationField(code) });
    }
    store.payments.set(id, created);
    emit('PAYMENT_CREATED', created);
    return created;
  }

  function confirm(id: string): SandboxPayment {
    const target = find(id);
    // A boleto already registered at the bank can still be paid after its charge was deleted: the charge comes back.
    const lateBoleto = target.deleted && target.billingType === 'BOLETO';
    if ((target.deleted && !lateBoleto) || !PAYABLE.includes(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser confirmadas.');
    }
    if (lateBoleto) {
      target.deleted = false;
      emit('PAYMENT_RESTORED', target);
    }
    const card = target.billingType === 'CREDIT_CARD';
    const charged =
      card && target.installment
        ? store.installmentPayments
            .get(target.installment)!
            .filter((one) => !one.deleted && PAYABLE.includes(one.status))
        : [target];
    const today = brasiliaToday();
    for (const payment of charged) {
      Object.assign(payment, {
        status: card ? 'CONFIRMED' : 'RECEIVED',
        paymentDate: today,
        clientPaymentDate: today,
        confirmedDate: today,
      });
      emit(card ? 'PAYMENT_CONFIRMED' : 'PAYMENT_RECEIVED', payment);
    }
    const installment = target.installment ? store.installments.get(target.installment) : undefined;
    if (installment) installment.paymentDate ??= today;
    return target;
  }

  function overdue(id: string): SandboxPayment {
    const target = find(id);
    if (target.deleted || target.status !== 'PENDING') {
      throw invalid('invalid_action', 'Somente cobranças aguardando pagamento podem vencer.');
    }
    target.status = 'OVERDUE';
    emit('PAYMENT_OVERDUE', target);
    return target;
  }

  function chargeback(id: string): SandboxPayment {
    const target = find(id);
    if (target.deleted || !PAID.has(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças recebidas ou confirmadas podem ter chargeback.');
    }
    target.status = 'CHARGEBACK_REQUESTED';
    emit('PAYMENT_CHARGEBACK_REQUESTED', target);
    return target;
  }

  function remove(id: string) {
    const target = find(id);
    if (target.deleted) throw notFound();
    if (!PAYABLE.includes(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser removidas.');
    }
    target.deleted = true;
    emit('PAYMENT_DELETED', target);
    return { deleted: true as const, id: target.id };
  }

  const isPaid = (payment: SandboxPayment) => !payment.deleted && PAID.has(payment.status);

  function refunded(target: SandboxPayment): SandboxPayment {
    target.status = 'REFUNDED';
    target.refunds = [{ dateCreated: brasiliaNow(), status: 'DONE', value: target.value }];
    emit('PAYMENT_REFUNDED', target);
    return target;
  }

  return { find, terms, create, open, confirm, overdue, chargeback, remove, isPaid, refunded };
}
