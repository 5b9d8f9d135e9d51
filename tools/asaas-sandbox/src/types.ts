/** The shapes of Asaas's API v3 that the sandbox keeps and answers, and its own test controls. */

export type BillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED';

export interface SandboxCustomer {
  object: 'customer';
  id: string;
  dateCreated: string;
  name: string;
  email: string | null;
  phone: string | null;
  mobilePhone: string | null;
  cpfCnpj: string;
  personType: 'FISICA' | 'JURIDICA';
  externalReference: string | null;
  notificationDisabled: boolean;
  deleted: boolean;
}

export interface SandboxPayment {
  object: 'payment';
  id: string;
  dateCreated: string;
  customer: string;
  value: number;
  netValue: number;
  description: string | null;
  billingType: BillingType;
  status: string;
  dueDate: string;
  originalDueDate: string;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  confirmedDate: string | null;
  invoiceUrl: string;
  invoiceNumber: string;
  bankSlipUrl: string | null;
  externalReference: string | null;
  deleted: boolean;
  refunds: { dateCreated: string; status: string; value: number }[] | null;
  /** Only on a payment that is one of an installment's (`ins_…`): which, its number (1..N) and N. */
  installment?: string;
  installmentNumber?: number;
  installmentCount?: number;
}

/** A purchase split into monthly payments (`POST /payments` with `installmentCount`). */
export interface SandboxInstallment {
  object: 'installment';
  id: string;
  /** The total, and the total net of fees. */
  value: number;
  netValue: number;
  /** Each payment's value (the last may differ by the rounding). */
  paymentValue: number;
  installmentCount: number;
  billingType: BillingType;
  paymentDate: string | null;
  description: string | null;
  /** The day of the month the payments fall due. */
  expirationDay: number;
  dateCreated: string;
  customer: string;
  paymentLink: null;
  transactionReceiptUrl: null;
  chargeback: null;
  refunds: { dateCreated: string; status: string; value: number }[] | null;
  deleted: boolean;
}

export type InvoiceStatus = 'SCHEDULED' | 'AUTHORIZED' | 'ERROR' | 'PROCESSING_CANCELLATION' | 'CANCELED';

/** A nota fiscal de serviço (NFS-e) asked for a payment (`POST /invoices`). */
export interface SandboxInvoice {
  object: 'invoice';
  id: string;
  status: InvoiceStatus;
  customer: string;
  payment: string;
  installment: string | null;
  type: 'NFS-e';
  /** Why the city or the provider refused it (ERROR). */
  statusDescription: string | null;
  serviceDescription: string | null;
  observations: string | null;
  value: number;
  deductions: number;
  effectiveDate: string;
  externalReference: string | null;
  municipalServiceId: string | null;
  municipalServiceCode: string | null;
  municipalServiceName: string | null;
  taxes: { retainIss: boolean; iss: number; cofins: number; csll: number; inss: number; ir: number; pis: number };
  /** Set once AUTHORIZED. */
  pdfUrl: string | null;
  xmlUrl: string | null;
  number: string | null;
  rpsSerie: string | null;
  rpsNumber: string | null;
  validationCode: string | null;
  dateCreated: string;
}

/** A bank slip's numbers, kept beside its payment. */
export interface Slip {
  nossoNumero: string;
  barCode: string;
  identificationField: string;
}

export interface Notification {
  id: string;
  event: string;
  dateCreated: string;
  payment: SandboxPayment;
}

/** The webhook body of the notas fiscais' events (`INVOICE_*`). */
export interface InvoiceNotification {
  id: string;
  event: string;
  dateCreated: string;
  invoice: SandboxInvoice;
}

/** A failure the API gives instead of its answer, for the next call that matches. */
export interface ApiFault {
  /** "METHOD /path" (path after /v3, without the query) or just "METHOD"; absent: any call. */
  match?: string;
  /** Answer with this status (500, 429, 503…) without doing anything. */
  status?: number;
  /** Do the work, then never answer (the caller times out). */
  timeout?: boolean;
  /** Wait until released (`release()` or `POST /v3/sandbox/release`), then do the work and answer. */
  hold?: boolean;
}

export interface SandboxFaults {
  /** Each webhook is delivered this many times, all at once (at least once). */
  webhookCopies: number;
  /** The next N webhooks are held back, then delivered newest first, one after the other. */
  reorderNext: number;
  /** Wait before every delivery attempt series. */
  webhookDelayMs: number;
  /** Consumed in order by the next matching API calls. */
  api: ApiFault[];
  /** While set, every refund call is refused (400 `invalid_action`) with this description. */
  refundRefusal: string | null;
  /** The next invoices created end in ERROR with these descriptions, one each, in order. */
  invoiceErrors: string[];
}

export interface RecordedRequest {
  method: string;
  /** After /v3, without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  fault?: number | 'timeout' | 'held';
}

export interface DeliveryRecord {
  eventId: string;
  event: string;
  /** The payment notified, or the one the nota fiscal notified is of. */
  paymentId: string;
  /** Set for the notas fiscais' events. */
  invoiceId?: string;
  copy: number;
  attempt: number;
  status: number | 'error';
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The only key accepted; any non-empty key when absent. */
  apiKey?: string;
  webhookUrl?: string;
  webhookToken?: string;
  /** The events the webhook is subscribed to (Asaas's webhook `events`); every event when absent. */
  webhookEvents?: ReadonlySet<string>;
  /** Multiplies the provider's retry gaps (30 s, 1 min, 3.5 min…): 0.001 turns them into milliseconds. */
  webhookRetryScale?: number;
  /** Consecutive failures after which a delivery is given up (Asaas pauses the queue after 15). */
  webhookMaxAttempts?: number;
  webhookTimeoutMs?: number;
  pixKey?: string;
  merchantName?: string;
  merchantCity?: string;
  bankCode?: string;
  /** How long a nota fiscal stays SCHEDULED before the city authorizes (or refuses) it: 2000 by default. */
  invoiceDelayMs?: number;
  /** Where the HTML pages are reached from outside; the listening address by default. */
  publicUrl?: string;
}

export interface Sandbox {
  /** Root of the sandbox (pages live here); the API is at `apiUrl`. */
  url: string;
  apiUrl: string;
  faults: SandboxFaults;
  webhook: { url?: string; token?: string };
  requests: RecordedRequest[];
  notifications: Notification[];
  invoiceNotifications: InvoiceNotification[];
  deliveries: DeliveryRecord[];
  customers: Map<string, SandboxCustomer>;
  payments: Map<string, SandboxPayment>;
  installments: Map<string, SandboxInstallment>;
  invoices: Map<string, SandboxInvoice>;
  readonly pendingWebhooks: number;
  /** API calls waiting for `release()` (faults with `hold`). */
  readonly heldCalls: number;
  /** Lets every held API call go on. */
  release(): void;
  /**
   * Marks the payment paid (CONFIRMED for cards, RECEIVED otherwise) and sends the webhook; for a card installment's
   * payment, every payment of the installment.
   */
  confirm(paymentId: string): SandboxPayment;
  overdue(paymentId: string): SandboxPayment;
  /** The card holder disputes a paid payment: CHARGEBACK_REQUESTED and its webhook. */
  chargeback(paymentId: string): SandboxPayment;
  close(): Promise<void>;
}
