import { z } from 'zod';

/** The local sandbox's address (`node services/payments/sandbox/main.ts`). */
export const LOCAL_SANDBOX_URL = 'http://127.0.0.1:8090/v3';
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
  /** How often charges whose order was cancelled are looked for (each request also wakes the job at once). */
  CHARGE_DELETION_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
};

export type PaymentsConfig = z.infer<z.ZodObject<typeof paymentsConfig>>;

export const isLocal = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
