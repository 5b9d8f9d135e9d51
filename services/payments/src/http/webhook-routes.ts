import { Router } from '@koa/router';
import { parseInput } from '@ticketing/platform';
import { z } from 'zod';
import type { PaymentsDeps } from '../domain/charge.ts';
import { assertWebhookToken, receiveWebhook } from '../domain/webhooks.ts';

const INVALID = 'Notificação de pagamento inválida';

const webhookSchema = z.looseObject({
  id: z.string({ error: INVALID }).min(1, INVALID).max(200, INVALID),
  event: z.string({ error: INVALID }).min(1, INVALID).max(100, INVALID),
  dateCreated: z.string().max(40).optional(),
  payment: z
    .looseObject({
      id: z.string({ error: INVALID }).min(1, INVALID).max(100, INVALID),
      status: z.string().max(60).optional(),
      value: z.number().optional(),
      externalReference: z.string().max(200).nullish(),
      deleted: z.boolean().optional(),
    })
    .optional(),
  invoice: z
    .looseObject({
      id: z.string({ error: INVALID }).min(1, INVALID).max(100, INVALID),
      status: z.string().max(60).optional(),
      externalReference: z.string().max(200).nullish(),
    })
    .optional(),
});

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
    const notification = parseInput(webhookSchema, ctx.request.body);
    const outcome = await receiveWebhook(deps, notification);
    ctx.body = { received: true, outcome };
  });
  return router;
}
