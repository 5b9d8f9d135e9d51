import type {
  DeliveryRecord,
  Notification,
  RecordedRequest,
  SandboxCustomer,
  SandboxFaults,
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
  faults: SandboxFaults;
  requests: RecordedRequest[];
  notifications: Notification[];
  deliveries: DeliveryRecord[];
  /** Numbers customers, invoices and bank slips. */
  sequence: number;
  /** Where the HTML pages are reached from outside. */
  publicUrl: string;
}

export const emptyStore = (publicUrl: string): Store => ({
  customers: new Map(),
  customersBy: { cpfCnpj: new Map(), externalReference: new Map() },
  payments: new Map(),
  slips: new Map(),
  faults: { webhookCopies: 1, reorderNext: 0, webhookDelayMs: 0, api: [] },
  requests: [],
  notifications: [],
  deliveries: [],
  sequence: 0,
  publicUrl,
});

export type Handler = (params: string[], query: Record<string, string>, body: Record<string, unknown>) => unknown;
/** An API route: method, path after /v3 (its groups are the handler's params), handler. */
export type Route = [method: string, path: RegExp, handler: Handler];
