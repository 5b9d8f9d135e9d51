import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '@ticketing/platform';
import type { AsaasWebhook } from '../asaas/types.ts';
import { lockChargeOfPayment, lockOrderCharges } from '../data/charges-repository.ts';
import { insertWebhookEvent, setWebhookOutcome } from '../data/webhook-events-repository.ts';
import { isOrderId, messages, type PaymentsDeps } from './charge.ts';
import { applyOutcome, outcomeOfEvent } from './provider-outcome.ts';

export type WebhookOutcome = 'applied' | 'stale' | 'ignored' | 'unknown_payment' | 'duplicate';

/** Compares the `asaas-access-token` header with the configured token in constant time (over equal-length digests). */
export function assertWebhookToken(received: string | undefined, expected: string): void {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  const ok = typeof received === 'string' && received.length > 0 && timingSafeEqual(digest(received), digest(expected));
  if (!ok) throw unauthorized(messages.invalidWebhookToken);
}

/** "YYYY-MM-DD HH:mm:ss" in Brasília time (UTC−3, no daylight saving since 2019); now when absent or malformed. */
export function providerInstant(dateCreated: string | undefined): Date {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(dateCreated ?? '');
  const instant = match ? new Date(`${match[1]}T${match[2]}-03:00`) : new Date(NaN);
  return Number.isNaN(instant.getTime()) ? new Date() : instant;
}

/**
 * A provider notification: its id is stored first (a repeated id changes nothing), then the charge moves as the
 * event says. Storing the id, the charge change and the outbox row are one transaction, so a failure leaves
 * nothing behind and the provider's retry is processed in full.
 */
export async function receiveWebhook(deps: PaymentsDeps, notification: AsaasWebhook): Promise<WebhookOutcome> {
  const payment = notification.payment;
  const paymentId = payment?.id ?? null;
  const log = { eventId: notification.id, event: notification.event, paymentId };
  const outcome = await deps.db.transaction(async (trx): Promise<WebhookOutcome> => {
    const fresh = await insertWebhookEvent(trx, {
      id: notification.id,
      event: notification.event,
      paymentId,
      payload: notification,
    });
    if (!fresh) return 'duplicate';
    const decide = async (): Promise<WebhookOutcome> => {
      if (!payment || !paymentId) return 'ignored';
      const change = outcomeOfEvent(notification.event, payment);
      if (!change) return 'ignored';
      const reference =
        payment.externalReference && isOrderId(payment.externalReference) ? payment.externalReference : null;
      // A charge still being stored is waited for rather than taken for unknown.
      if (reference) await lockOrderCharges(trx, reference);
      const charge = await lockChargeOfPayment(trx, paymentId, reference);
      if (!charge) return 'unknown_payment';
      const { result } = await applyOutcome(deps, trx, charge, change, {
        paymentId,
        value: typeof payment.value === 'number' ? payment.value : undefined,
        paidAt: providerInstant(notification.dateCreated),
        source: 'webhook',
        eventId: notification.id,
      });
      return result;
    };
    const result = await decide();
    await setWebhookOutcome(trx, notification.id, result);
    return result;
  });
  if (outcome === 'duplicate') deps.logger.info(log, 'webhook duplicate ignored');
  else if (outcome === 'unknown_payment') deps.logger.warn(log, 'webhook for an unknown payment stored');
  else deps.logger.info({ ...log, outcome }, 'webhook processed');
  return outcome;
}
