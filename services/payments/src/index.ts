export { paymentsService } from './service.ts';
export { paymentsMigrations } from './data/migrations.ts';
export { paymentsConfig, type PaymentsConfig } from './config.ts';
export { createAsaas, type Asaas, type ProviderCharge, type ProviderChargeRequest } from './asaas/adapter.ts';
export type { AsaasPayment, AsaasCustomer, AsaasWebhook } from './asaas/types.ts';
