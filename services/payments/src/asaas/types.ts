/** The subset of the Asaas API v3 shapes the payments service reads and writes. */

export type BillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED';

export interface AsaasList<T> {
  object: 'list';
  hasMore: boolean;
  totalCount: number;
  limit: number;
  offset: number;
  data: T[];
}

export interface AsaasCustomer {
  object: 'customer';
  id: string;
  name: string;
  cpfCnpj: string;
  email?: string | null;
  mobilePhone?: string | null;
  externalReference?: string | null;
  deleted?: boolean;
}

export interface NewCustomer {
  name: string;
  cpfCnpj: string;
  email?: string;
  mobilePhone?: string;
  externalReference?: string;
  notificationDisabled?: boolean;
}

export interface AsaasPayment {
  object: 'payment';
  id: string;
  customer: string;
  status: string;
  value: number;
  netValue?: number;
  billingType: BillingType;
  dueDate: string;
  description?: string | null;
  externalReference?: string | null;
  invoiceUrl?: string | null;
  bankSlipUrl?: string | null;
  deleted: boolean;
  paymentDate?: string | null;
  confirmedDate?: string | null;
  /** The installment plan (`ins_…`) a card payment in installments belongs to. */
  installment?: string | null;
  installmentNumber?: number | null;
}

/** A card payment in `installmentCount` installments: `totalValue` is split among them. */
export interface AsaasInstallment {
  object?: 'installment';
  id: string;
  /** The total of the installments. */
  value: number;
  /** What the provider pays out for all of them after its fees. */
  netValue?: number;
  installmentCount: number;
}

/** The provider's answer to a boleto refund: the page where the payer gives the bank account. */
export interface AsaasBankSlipRefund {
  requestUrl: string;
}

/** A nota fiscal (NFS-e) at the provider. */
export interface AsaasInvoice {
  object?: 'invoice';
  id: string;
  status: string;
  payment?: string | null;
  externalReference?: string | null;
  pdfUrl?: string | null;
  statusDescription?: string | null;
  value?: number;
  deleted?: boolean;
}

export interface NewInvoice {
  payment: string;
  serviceDescription: string;
  observations: string;
  value: number;
  deductions: number;
  effectiveDate: string;
  municipalServiceId?: string;
  municipalServiceCode?: string;
  municipalServiceName?: string;
  taxes: { retainIss: boolean; iss: number; cofins: 0; csll: 0; inss: 0; ir: 0; pis: 0 };
  externalReference: string;
}

export interface AsaasPixQrCode {
  encodedImage: string;
  payload: string;
  expirationDate?: string;
}

export interface AsaasIdentificationField {
  identificationField: string;
  nossoNumero?: string;
  barCode?: string;
}

export interface AsaasErrorBody {
  errors?: { code?: string; description?: string }[];
}

/** A webhook notification as Asaas sends it. */
export interface AsaasWebhook {
  id: string;
  event: string;
  dateCreated?: string;
  payment?: Partial<AsaasPayment> & { id: string };
  invoice?: Partial<AsaasInvoice> & { id: string };
}
