import type {
  DeliveryRecord,
  InvoiceNotification,
  Notification,
  RecordedRequest,
  SandboxCustomer,
  SandboxFaults,
  SandboxInstallment,
  SandboxInvoice,
  SandboxPayment,
  Slip,
} from './types.ts';

/** Everything the sandbox keeps, in memory. */
export interface Store {
  customers: Map<string, SandboxCustomer>;
  /** Customers by CPF/CNPJ and by external reference, the look-ups made before every charge: found without a scan. */
  customersBy: { cpfCnpj: Map<string, SandboxCustomer[]>; externalReference: Map<string, SandboxCustomer[]> };
  payments: Map<string, SandboxPayment>;
  slips: Map<string, Slip>;
  installments: Map<string, SandboxInstallment>;
  /** Each installment's payments, in order. */
  installmentPayments: Map<string, SandboxPayment[]>;
  invoices: Map<string, SandboxInvoice>;
  /** The boleto refunds waiting for the payer's bank account, by the token of their page, and their token by payment. */
  bankSlipRefunds: { byToken: Map<string, string>; byPayment: Map<string, string> };
  faults: SandboxFaults;
  requests: RecordedRequest[];
  notifications: Notification[];
  invoiceNotifications: InvoiceNotification[];
  deliveries: DeliveryRecord[];
  /** Numbers customers, installments, invoices and bank slips. */
  sequence: number;
  /** Where the HTML pages are reached from outside. */
  publicUrl: string;
}

export const emptyStore = (publicUrl: string): Store => ({
  customers: new Map(),
  customersBy: { cpfCnpj: new Map(), externalReference: new Map() },
  payments: new Map(),
  slips: new Map(),
  installments: new Map(),
  installmentPayments: new Map(),
  invoices: new Map(),
  bankSlipRefunds: { byToken: new Map(), byPayment: new Map() },
  faults: { webhookCopies: 1, reorderNext: 0, webhookDelayMs: 0, api: [], refundRefusal: null, invoiceErrors: [] },
  requests: [],
  notifications: [],
  invoiceNotifications: [],
  deliveries: [],
  sequence: 0,
  publicUrl,
});

export type Handler = (params: string[], query: Record<string, string>, body: Record<string, unknown>) => unknown;
/** The next number of the store's sequence, as Asaas writes its ids: `cus_000000000042`. */
export const nextId = (store: Store, prefix: string) => `${prefix}_${String(++store.sequence).padStart(12, '0')}`;

/** An API route: method, path after /v3 (its groups are the handler's params), handler. */
export type Route = [method: string, path: RegExp, handler: Handler];
