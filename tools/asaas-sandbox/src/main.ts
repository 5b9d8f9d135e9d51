/**
 * The local Asaas sandbox: `node tools/asaas-sandbox/src/main.ts`. Listens on SANDBOX_PORT (8090) and sends
 * webhooks to SANDBOX_WEBHOOK_URL (the gateway's /api/payments/webhook) with ASAAS_WEBHOOK_TOKEN, for the payment and
 * nota fiscal events payments subscribes to. Notas fiscais are decided SANDBOX_INVOICE_DELAY_MS after
 * they are asked for.
 */
import { z } from 'zod';
import { ASAAS_WEBHOOK_EVENTS } from '@ticketing/proto';
import { startSandbox } from './sandbox.ts';

const settings = z
  .object({
    SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
    SANDBOX_HOST: z.string().default('127.0.0.1'),
    SANDBOX_PUBLIC_URL: z.url().optional(),
    SANDBOX_WEBHOOK_URL: z.url().default('http://127.0.0.1:8080/api/payments/webhook'),
    SANDBOX_WEBHOOK_RETRY_SCALE: z.coerce.number().min(0).default(1),
    SANDBOX_INVOICE_DELAY_MS: z.coerce.number().int().min(0).default(2000),
    ASAAS_WEBHOOK_TOKEN: z.string().min(1).default('dev-webhook-token'),
    /** When set, the only key accepted; otherwise any non-empty `access_token`. */
    ASAAS_API_KEY: z.string().min(1).optional(),
  })
  .safeParse(process.env);

if (!settings.success) {
  console.error(
    `sandbox: invalid configuration:\n${settings.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
  );
  process.exit(1);
}
const env = settings.data;
const sandbox = await startSandbox({
  port: env.SANDBOX_PORT,
  host: env.SANDBOX_HOST,
  publicUrl: env.SANDBOX_PUBLIC_URL,
  apiKey: env.ASAAS_API_KEY,
  webhookUrl: env.SANDBOX_WEBHOOK_URL,
  webhookToken: env.ASAAS_WEBHOOK_TOKEN,
  webhookEvents: ASAAS_WEBHOOK_EVENTS,
  webhookRetryScale: env.SANDBOX_WEBHOOK_RETRY_SCALE,
  invoiceDelayMs: env.SANDBOX_INVOICE_DELAY_MS,
});
console.log(`Asaas sandbox at ${sandbox.apiUrl}; webhooks to ${env.SANDBOX_WEBHOOK_URL}`);

const stop = async () => {
  await sandbox.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
