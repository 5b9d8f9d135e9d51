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
}

export interface NewPayment {
  customer: string;
  billingType: BillingType;
  value: number;
  dueDate: string;
  description?: string;
  externalReference?: string;
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
}
