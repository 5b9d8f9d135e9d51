import { randomBytes } from 'node:crypto';
import { invalid, notFound } from './api-error.ts';
import { barCode, identificationField } from './boleto.ts';
import type { Store } from './store.ts';
import type { BillingType, SandboxPayment } from './types.ts';
import { brasiliaNow, brasiliaToday, isDate } from './values.ts';
import type { Webhooks } from './webhooks.ts';

const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
const PAYABLE = ['PENDING', 'OVERDUE'];
const BILLING_TYPES = new Set<string>(['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED']);

/** A payment's life at the provider: what the API, the control routes and the hosted pages do to it. */
export interface PaymentLedger {
  find(id: string): SandboxPayment;
  create(body: Record<string, unknown>): SandboxPayment;
  /** Marks the payment paid (CONFIRMED for cards, RECEIVED otherwise) and sends the webhook. */
  confirm(id: string): SandboxPayment;
  overdue(id: string): SandboxPayment;
  /** The card holder disputes a paid payment: CHARGEBACK_REQUESTED and its webhook. */
  chargeback(id: string): SandboxPayment;
  remove(id: string): { deleted: true; id: string };
  refund(id: string): SandboxPayment;
}

export function paymentLedger(store: Store, { emit }: Pick<Webhooks, 'emit'>, bankCode: string): PaymentLedger {
  function find(id: string): SandboxPayment {
    const found = store.payments.get(id);
    if (!found) throw notFound();
    return found;
  }

  function create(body: Record<string, unknown>): SandboxPayment {
    const customer = typeof body.customer === 'string' ? store.customers.get(body.customer) : undefined;
    if (!customer || customer.deleted) throw invalid('invalid_customer', 'Customer inválido ou não informado.');
    if (typeof body.billingType !== 'string' || !BILLING_TYPES.has(body.billingType)) {
      throw invalid('invalid_billingType', 'Informe uma forma de pagamento válida.');
    }
    if (typeof body.value !== 'number' || !Number.isFinite(body.value) || body.value <= 0) {
      throw invalid('invalid_value', 'O valor da cobrança deve ser maior que zero.');
    }
    if (!isDate(body.dueDate)) throw invalid('invalid_dueDate', 'A data de vencimento informada é inválida.');
    if (body.dueDate < brasiliaToday()) {
      throw invalid('invalid_dueDate', 'A data de vencimento não pode ser anterior à data atual.');
    }
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 500)) {
      throw invalid('invalid_description', 'A descrição deve ter no máximo 500 caracteres.');
    }
    const id = `pay_${randomBytes(8).toString('hex')}`;
    const billingType = body.billingType as BillingType;
    const cents = Math.round(body.value * 100);
    const { publicUrl } = store;
    const created: SandboxPayment = {
      object: 'payment',
      id,
      dateCreated: brasiliaToday(),
      customer: customer.id,
      value: cents / 100,
      netValue: Math.max(0, cents - 99) / 100,
      description: (body.description as string | undefined) ?? null,
      billingType,
      status: 'PENDING',
      dueDate: body.dueDate,
      originalDueDate: body.dueDate,
      paymentDate: null,
      clientPaymentDate: null,
      confirmedDate: null,
      invoiceUrl: `${publicUrl}/i/${id}`,
      invoiceNumber: String(store.sequence + 1000000),
      bankSlipUrl: billingType === 'BOLETO' || billingType === 'UNDEFINED' ? `${publicUrl}/b/${id}` : null,
      externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
      deleted: false,
      refunds: null,
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
    const today = brasiliaToday();
    const card = target.billingType === 'CREDIT_CARD';
    Object.assign(target, {
      status: card ? 'CONFIRMED' : 'RECEIVED',
      paymentDate: today,
      clientPaymentDate: today,
      confirmedDate: today,
    });
    emit(card ? 'PAYMENT_CONFIRMED' : 'PAYMENT_RECEIVED', target);
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

  function refund(id: string): SandboxPayment {
    const target = find(id);
    if (target.deleted || !PAID.has(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças recebidas ou confirmadas podem ser estornadas.');
    }
    target.status = 'REFUNDED';
    target.refunds = [{ dateCreated: brasiliaNow(), status: 'DONE', value: target.value }];
    emit('PAYMENT_REFUNDED', target);
    return target;
  }

  return { find, create, confirm, overdue, chargeback, remove, refund };
}
