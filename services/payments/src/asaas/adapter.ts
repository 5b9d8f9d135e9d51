import { AppError } from '@ticketing/platform';
import { cnpjCharacters, paymentsMessages, toCents, type ChargeRequest } from '@ticketing/proto';
import { createAsaasHttp, ProviderError, toAppError, type AsaasClientOptions } from './client.ts';
import type {
  AsaasBankSlipRefund,
  AsaasCustomer,
  AsaasIdentificationField,
  AsaasInstallment,
  AsaasInvoice,
  AsaasList,
  AsaasPayment,
  AsaasPixQrCode,
  BillingType,
  NewCustomer,
  NewInvoice,
} from './types.ts';

export type ChargeMethod = 'pix' | 'credit_card' | 'boleto';

const BILLING_TYPE: Record<ChargeMethod, BillingType> = { pix: 'PIX', credit_card: 'CREDIT_CARD', boleto: 'BOLETO' };

export interface ProviderChargeRequest {
  orderId: string;
  method: ChargeMethod;
  /** Decimal string with two places. */
  amount: string;
  description: string;
  dueDate: string;
  /** By CPF (a person) or CNPJ (a company). */
  customer: ChargeRequest['customer'];
  /** Card installments: more than 1 splits `amount` into them. */
  installments?: number;
  /** No earlier attempt can have made the order's payment (its charge was reserved just now, for the first time). */
  firstAttempt?: boolean;
}

/** A charge at the provider with what the buyer needs to pay it. */
export interface ProviderCharge {
  payment: AsaasPayment;
  customerId: string;
  pixQrCode: string | null;
  pixPayload: string | null;
  boletoUrl: string | null;
  boletoLine: string | null;
  invoiceUrl: string | null;
}

/** Statuses after which a refund needs nothing more from us. */
const REFUND_STATUSES = new Set(['REFUNDED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);

/** The provider refused a refund or a nota fiscal for its own sake: `reason` is its own description. */
export class ProviderRefusal extends AppError {
  readonly reason: string;

  constructor(message: string, reason: string) {
    super(422, message);
    this.reason = reason;
  }
}

/** The payment a refund is asked for: an installment charge is refunded as a whole plan. */
export interface RefundTarget {
  paymentId: string;
  installmentId: string | null;
}

/**
 * The only code that talks to the payment provider. It does not know whether the base URL is Asaas or the local
 * sandbox. Every method throws an AppError the caller can show: 422 when the provider refused, 503 when it did
 * not answer within the attempt budget.
 */
export interface Asaas {
  findOrCreateCustomer(customer: ProviderChargeRequest['customer']): Promise<AsaasCustomer>;
  /**
   * The order's payment: reused when one exists (a create that timed out is never repeated), else created. Only so
   * many charges are created at once (the provider allows 50 concurrent reads); the others wait their turn.
   */
  createCharge(request: ProviderChargeRequest): Promise<ProviderCharge>;
  /** Null when the provider does not know the payment. */
  getPayment(paymentId: string): Promise<AsaasPayment | null>;
  /** Deletes a PENDING/OVERDUE payment; a payment already gone counts as deleted. */
  deletePayment(paymentId: string): Promise<void>;
  /** The installment plan's totals; null when the provider does not know it. */
  getInstallment(installmentId: string): Promise<AsaasInstallment | null>;
  /**
   * Refunds a paid PIX or card payment (an installment plan as a whole) and answers the payment as it stands after.
   * Throws ProviderRefusal when the provider refuses it.
   */
  refundPayment(target: RefundTarget): Promise<AsaasPayment>;
  /** Asks for a paid boleto's refund: the payer gives the bank account at the page answered (asked again: the same). */
  refundBankSlip(paymentId: string): Promise<AsaasBankSlipRefund>;
  /**
   * The payment's nota fiscal for the order: the one already asked for when there is one, else a new one. Throws
   * ProviderRefusal when the provider refuses it (its fields, the account's fiscal registration).
   */
  scheduleInvoice(invoice: NewInvoice): Promise<AsaasInvoice>;
  /** Null when the provider does not know the invoice. */
  getInvoice(invoiceId: string): Promise<AsaasInvoice | null>;
  cancelInvoice(invoiceId: string): Promise<AsaasInvoice>;
  /**
   * The longest an operation can take when every call times out and is retried (createCharge is the longest):
   * work handed out for the provider is taken over by someone else only after this long.
   */
  readonly longestOperationMs: number;
}

const digits = (value: string) => value.replace(/\D/g, '');

/** The CPF's digits or the CNPJ's characters, as the provider keys customers. */
const documentOf = (customer: ChargeRequest['customer']) =>
  customer.cnpj ? cnpjCharacters(customer.cnpj) : digits(customer.cpf!);

const refundCall = { body: {}, retry: false } as const;

/** The provider's own words for a refusal. */
const reasonOf = (error: ProviderError) => error.descriptions.filter(Boolean).join(' ') || 'sem motivo informado';

const refundRefused = (error: ProviderError) => {
  const reason = reasonOf(error);
  return new ProviderRefusal(paymentsMessages.refundRefused(reason), reason);
};

/**
 * Runs tasks `limit` at a time, the others waiting their turn in arrival order: a burst of charges is created one
 * group after another instead of all at once, each slower than the provider's timeouts.
 */
function inTurns(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export interface AsaasOptions extends AsaasClientOptions {
  /** Charges being created at the provider at once. */
  concurrentCharges: number;
}

export function createAsaas(options: AsaasOptions): Asaas {
  const http = createAsaasHttp(options);
  const { logger, timeoutMs, maxAttempts, retryDelayMs } = options;
  const chargeTurn = inTurns(options.concurrentCharges);
  // createCharge: up to two calls per customer attempt, two per payment attempt, one for the PIX code or line.
  const backOffsMs = retryDelayMs * (2 ** (maxAttempts - 1) - 1);
  const longestOperationMs = 2 * (5 * maxAttempts * timeoutMs + 3 * backOffsMs);

  /** Runs an adapter operation and turns provider failures into AppErrors. */
  async function guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toAppError(error);
    }
  }

  /**
   * Look up, and only if nothing is there create; a create that failed in a retryable way is looked up again. What
   * cannot exist yet (`nothingYet`) is created without a first look.
   */
  function lookupOrCreate<T>(
    what: string,
    find: () => Promise<T | undefined>,
    create: () => Promise<T>,
    { nothingYet = false } = {},
  ): Promise<T> {
    let look = !nothingYet;
    return http.withRetries(what, async () => {
      const found = look ? await find() : undefined;
      look = true;
      return found ?? (await create());
    });
  }

  async function firstCustomer(query: Record<string, string>): Promise<AsaasCustomer | undefined> {
    const list = await http.call<AsaasList<AsaasCustomer>>('GET', '/customers', { query: { ...query, limit: 10 } });
    return list.data.find((customer) => !customer.deleted);
  }

  async function findOrCreateCustomer(customer: ProviderChargeRequest['customer']): Promise<AsaasCustomer> {
    const cpfCnpj = documentOf(customer);
    return lookupOrCreate(
      'customer',
      // By the CPF or CNPJ the charge is made out to: a buyer whose CPF changed gets a customer in the new one.
      () => firstCustomer({ cpfCnpj }),
      async () => {
        const body: NewCustomer = {
          name: customer.name,
          cpfCnpj,
          email: customer.email,
          externalReference: customer.userId,
          notificationDisabled: true,
          ...(customer.phone && digits(customer.phone) ? { mobilePhone: digits(customer.phone) } : {}),
        };
        const created = await http.call<AsaasCustomer>('POST', '/customers', { body, retry: false });
        logger.info({ customerId: created.id, userId: customer.userId }, 'provider customer created');
        return created;
      },
    );
  }

  async function paymentOf(orderId: string): Promise<AsaasPayment | undefined> {
    const list = await http.call<AsaasList<AsaasPayment>>('GET', '/payments', {
      query: { externalReference: orderId, limit: 100 },
    });
    // An installment plan has a payment per installment, all with the order's reference: the charge is the first.
    return list.data
      .filter((payment) => !payment.deleted && payment.externalReference === orderId)
      .sort((a, b) => (a.installmentNumber ?? 1) - (b.installmentNumber ?? 1))[0];
  }

  /** Null for a 404: what the provider does not know. */
  async function orNull<T>(read: Promise<T>): Promise<T | null> {
    try {
      return await read;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  const getPayment = (paymentId: string) =>
    orNull(http.call<AsaasPayment>('GET', `/payments/${encodeURIComponent(paymentId)}`));

  async function invoiceOf(paymentId: string, orderId: string): Promise<AsaasInvoice | undefined> {
    const list = await http.call<AsaasList<AsaasInvoice>>('GET', '/invoices', {
      query: { payment: paymentId, limit: 100 },
    });
    return list.data.find(
      (invoice) => !invoice.deleted && invoice.externalReference === orderId && invoice.status !== 'CANCELED',
    );
  }

  /**
   * Asks for a refund once and answers the payment after it (an installment plan's refund answers the plan, so the
   * payment is read then). A refusal because a concurrent call already made it counts as done.
   */
  async function refundOnce({ paymentId, installmentId }: RefundTarget): Promise<AsaasPayment> {
    const id = encodeURIComponent(paymentId);
    try {
      if (!installmentId) return await http.call<AsaasPayment>('POST', `/payments/${id}/refund`, refundCall);
      await http.call('POST', `/installments/${encodeURIComponent(installmentId)}/refund`, refundCall);
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === 'refused')) throw error;
      const payment = await getPayment(paymentId);
      if (payment && REFUND_STATUSES.has(payment.status)) return payment;
      throw refundRefused(error);
    }
    return http.call<AsaasPayment>('GET', `/payments/${id}`);
  }

  return {
    longestOperationMs,

    findOrCreateCustomer: (customer) => guarded(() => findOrCreateCustomer(customer)),

    createCharge: (request) =>
      chargeTurn(() =>
        guarded(async () => {
          const customer = await findOrCreateCustomer(request.customer);
          const billingType = BILLING_TYPE[request.method];
          const payment = await lookupOrCreate(
            'payment',
            async () => {
              const existing = await paymentOf(request.orderId);
              if (existing)
                logger.info({ orderId: request.orderId, paymentId: existing.id }, 'provider payment reused');
              return existing;
            },
            () =>
              http.call<AsaasPayment>('POST', '/payments', {
                retry: false,
                body: {
                  customer: customer.id,
                  billingType,
                  ...((request.installments ?? 1) > 1
                    ? { installmentCount: request.installments, totalValue: toCents(request.amount) / 100 }
                    : { value: toCents(request.amount) / 100 }),
                  dueDate: request.dueDate,
                  description: request.description,
                  externalReference: request.orderId,
                },
              }),
            { nothingYet: request.firstAttempt },
          );
          const id = encodeURIComponent(payment.id);
          const charge: ProviderCharge = {
            payment,
            customerId: customer.id,
            pixQrCode: null,
            pixPayload: null,
            boletoUrl: null,
            boletoLine: null,
            invoiceUrl: payment.invoiceUrl ?? null,
          };
          if (payment.billingType === 'PIX') {
            const pix = await http.call<AsaasPixQrCode>('GET', `/payments/${id}/pixQrCode`);
            charge.pixQrCode = pix.encodedImage;
            charge.pixPayload = pix.payload;
          } else if (payment.billingType === 'BOLETO') {
            charge.boletoUrl = payment.bankSlipUrl ?? null;
            const line = await http.call<AsaasIdentificationField>('GET', `/payments/${id}/identificationField`);
            charge.boletoLine = line.identificationField;
          }
          return charge;
        }),
      ),

    getPayment: (paymentId) => guarded(() => getPayment(paymentId)),

    deletePayment: (paymentId) =>
      guarded(async () => {
        try {
          await http.call('DELETE', `/payments/${encodeURIComponent(paymentId)}`);
        } catch (error) {
          if (error instanceof ProviderError && error.kind === 'not_found') return;
          throw error;
        }
      }),

    getInstallment: (installmentId) =>
      guarded(() => orNull(http.call<AsaasInstallment>('GET', `/installments/${encodeURIComponent(installmentId)}`))),

    refundPayment: ({ paymentId, installmentId }) =>
      guarded(() =>
        // A refund whose answer was lost may have happened: read the payment before asking again.
        lookupOrCreate(
          'refund',
          async () => {
            const payment = await getPayment(paymentId);
            return payment && REFUND_STATUSES.has(payment.status) ? payment : undefined;
          },
          () => refundOnce({ paymentId, installmentId }),
        ),
      ),

    // The provider answers the same page when asked again, so a lost answer is simply asked for again.
    refundBankSlip: (paymentId) =>
      guarded(async () => {
        try {
          return await http.call<AsaasBankSlipRefund>(
            'POST',
            `/payments/${encodeURIComponent(paymentId)}/bankSlip/refund`,
            { body: {} },
          );
        } catch (error) {
          if (error instanceof ProviderError && error.kind === 'refused') throw refundRefused(error);
          throw error;
        }
      }),

    scheduleInvoice: (invoice) =>
      guarded(() =>
        lookupOrCreate(
          'invoice',
          () => invoiceOf(invoice.payment, invoice.externalReference),
          async () => {
            try {
              return await http.call<AsaasInvoice>('POST', '/invoices', { body: invoice, retry: false });
            } catch (error) {
              if (!(error instanceof ProviderError && error.kind === 'refused')) throw error;
              const reason = reasonOf(error);
              throw new ProviderRefusal(reason, reason);
            }
          },
        ),
      ),

    getInvoice: (invoiceId) =>
      guarded(() => orNull(http.call<AsaasInvoice>('GET', `/invoices/${encodeURIComponent(invoiceId)}`))),

    cancelInvoice: (invoiceId) =>
      guarded(() => http.call<AsaasInvoice>('POST', `/invoices/${encodeURIComponent(invoiceId)}/cancel`, { body: {} })),
  };
}
