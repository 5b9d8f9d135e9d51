import type { ProductionCheck } from '@ticketing/platform';
import { z } from 'zod';

/** The local sandbox's address (`node tools/asaas-sandbox/src/main.ts`). */
export const LOCAL_SANDBOX_URL = 'http://127.0.0.1:8090/v3';
/** Asaas's production API, the only one a production deployment may charge through. */
export const ASAAS_PRODUCTION_URL = 'https://api.asaas.com/v3';
/** Asaas's sandbox keys start so; production keys start `$aact_prod_`. */
const SANDBOX_KEY_PREFIX = '$aact_hmlg_';
/** Development defaults: a real deployment sets its own (compose and k8s pass them in). */
export const DEVELOPMENT_API_KEY = '$aact_hmlg_sandbox_local';
export const DEVELOPMENT_WEBHOOK_TOKEN = 'dev-webhook-token';

/** The payments service's own settings, on top of the platform's. */
export const paymentsConfig = {
  /** Asaas API v3 base: https://api.asaas.com/v3, https://api-sandbox.asaas.com/v3 or the local sandbox. */
  ASAAS_BASE_URL: z
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .default(LOCAL_SANDBOX_URL),
  /** Sent as the `access_token` header. */
  ASAAS_API_KEY: z.string().min(1, 'set the Asaas API key (access_token)').default(DEVELOPMENT_API_KEY),
  /** The `asaas-access-token` every webhook delivery must carry (the authToken configured at Asaas). */
  ASAAS_WEBHOOK_TOKEN: z.string().min(16, 'use at least 16 characters').default(DEVELOPMENT_WEBHOOK_TOKEN),
  ASAAS_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  ASAAS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  ASAAS_RETRY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(300),
  /**
   * Charges created at the provider at once, each a few calls in a row (Asaas allows 50 concurrent reads per account);
   * the others wait their turn, so a sales rush is served in arrival order rather than all of it slowly.
   */
  ASAAS_CONCURRENT_CHARGES: z.coerce.number().int().min(1).max(50).default(40),
  /** How often charges whose order was cancelled are looked for (each request also wakes the job at once). */
  CHARGE_DELETION_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** How often notas fiscais to schedule or cancel at the provider are looked for (a payment or refund wakes it too). */
  INVOICE_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
};

export type PaymentsConfig = z.infer<z.ZodObject<typeof paymentsConfig>>;

/** Production charges real money: not through the local sandbox, Asaas's sandbox or any other host. */
export const paymentsProductionChecks = {
  ASAAS_BASE_URL: (url) =>
    url === ASAAS_PRODUCTION_URL ? undefined : `must be Asaas's production API (${ASAAS_PRODUCTION_URL}) in production`,
  ASAAS_API_KEY: (key) =>
    String(key).startsWith(SANDBOX_KEY_PREFIX) ? 'a sandbox key cannot be used in production' : undefined,
} satisfies Record<string, ProductionCheck>;

export const isLocal = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
