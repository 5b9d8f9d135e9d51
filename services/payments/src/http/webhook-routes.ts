import { Router } from '@koa/router';
import { parseInput } from '@ticketing/platform';
import { paymentWebhookSchema } from '@ticketing/proto';
import type { PaymentsDeps } from '../domain/charge.ts';
import { assertWebhookToken, receiveWebhook } from '../domain/webhooks.ts';

/**
 * The provider's notifications about payments and notas fiscais (routed by the gateway). 200 for every event stored,
 * whether it changed anything, was held for review or was a repetition; 503 when the provider could not be asked, and any
 * other failure only when storing failed, so the provider tries again.
 */
export function webhookRoutes(deps: PaymentsDeps, webhookToken: string): Router {
  const router = new Router();
  router.post('/api/payments/webhook', async (ctx) => {
    try {
      assertWebhookToken(ctx.get('asaas-access-token') || undefined, webhookToken);
    } catch (error) {
      deps.logger.warn({ hasToken: Boolean(ctx.get('asaas-access-token')) }, 'webhook token rejected');
      throw error;
    }
    const notification = parseInput(paymentWebhookSchema, ctx.request.body);
    const outcome = await receiveWebhook(deps, notification);
    ctx.body = { received: true, outcome };
  });
  return router;
}
