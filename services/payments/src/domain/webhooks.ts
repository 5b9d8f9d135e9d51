import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, continueTrace, unauthorized, type Knex } from '@ticketing/platform';
import { ASAAS_WEBHOOK_EVENTS, isUuid } from '@ticketing/proto';
import type { AsaasInvoice, AsaasWebhook } from '../asaas/types.ts';
import { findCharge, isBeingCreated, lockChargeOfPayment } from '../data/charges-repository.ts';
import { lockInvoiceOfProvider } from '../data/invoices-repository.ts';
import { insertWebhookEvent, setWebhookOutcome, webhookEventSeen } from '../data/webhook-events-repository.ts';
import { messages, type PaymentsDeps } from './charge.ts';
import { applyInvoiceView } from './invoices.ts';
import { applyProviderView, readProviderView, type ProviderView, type ViewResult } from './provider-view.ts';

export type WebhookOutcome = ViewResult | 'ignored' | 'unknown_payment' | 'unknown_invoice' | 'duplicate';

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
 * A provider notification is a hint that a payment or a nota fiscal changed, never the fact: it is read from the
 * provider, with no transaction open, and what the provider shows is applied. The event id, the change and the
 * outbox row are then stored in one transaction. When the provider cannot be asked nothing is stored, so the
 * notification is answered 503 and its redelivery is processed in full.
 */
export async function receiveWebhook(deps: PaymentsDeps, notification: AsaasWebhook): Promise<WebhookOutcome> {
  const paymentId = notification.payment?.id ?? null;
  const invoiceId = notification.invoice?.id ?? null;
  const log = { eventId: notification.id, event: notification.event, paymentId, invoiceId };
  const outcome = await receive();
  if (outcome === 'duplicate') deps.logger.info(log, 'webhook duplicate ignored');
  else if (outcome === 'unknown_payment') deps.logger.warn(log, 'webhook for an unknown payment stored');
  else if (outcome === 'unknown_invoice') deps.logger.warn(log, 'webhook for an unknown nota fiscal stored');
  else deps.logger.info({ ...log, outcome }, 'webhook processed');
  return outcome;

  async function receive(): Promise<WebhookOutcome> {
    const stored = { id: notification.id, event: notification.event, paymentId, payload: notification };
    // Nothing to ask the provider or to apply (an event the webhook is not subscribed to): stored with its outcome in
    // one statement.
    if (!((paymentId || invoiceId) && ASAAS_WEBHOOK_EVENTS.has(notification.event))) {
      return (await insertWebhookEvent(deps.db, stored, 'ignored')) ? 'ignored' : 'duplicate';
    }
    if (await webhookEventSeen(deps.db, notification.id)) return 'duplicate';
    let apply: (trx: Knex.Transaction) => Promise<WebhookOutcome>;
    try {
      if (paymentId) {
        const view = await readProviderView(deps.asaas, paymentId);
        apply = (trx) => applyNotified(trx, view);
      } else {
        const invoice = await deps.asaas.getInvoice(invoiceId!);
        apply = (trx) => applyNotifiedInvoice(trx, invoice);
      }
    } catch (error) {
      deps.logger.warn(log, 'provider not reachable for a webhook: the provider will deliver it again');
      throw error;
    }
    return deps.db.transaction(async (trx) => {
      const fresh = await insertWebhookEvent(trx, stored);
      if (!fresh) return 'duplicate';
      const result = await apply(trx);
      await setWebhookOutcome(trx, notification.id, result);
      return result;
    });
  }

  async function applyNotifiedInvoice(trx: Knex.Transaction, provider: AsaasInvoice | null): Promise<WebhookOutcome> {
    const invoice = provider && (await lockInvoiceOfProvider(trx, provider));
    if (!invoice) return 'unknown_invoice';
    const charge = (await findCharge(trx, invoice.orderId))!;
    return applyInvoiceView(deps, trx, invoice, charge, provider!);
  }

  async function applyNotified(trx: Knex.Transaction, view: ProviderView | null): Promise<WebhookOutcome> {
    if (view === null) return 'unknown_payment';
    const { payment } = view;
    // Another installment of a charge's plan finds the charge by the plan.
    const charge = await lockChargeOfPayment(trx, payment);
    if (!charge) {
      const reference = payment.externalReference;
      if (reference && isUuid(reference) && (await isBeingCreated(trx, reference))) {
        // The payment was made for a charge whose creation has not been recorded yet: try again shortly.
        deps.logger.warn({ ...log, orderId: reference }, 'webhook for a charge still being created');
        throw new AppError(503, messages.chargeBeingCreated);
      }
      return 'unknown_payment';
    }
    // What the provider says about the charge belongs to the sale that made it: its events continue that trace.
    const { result } = await continueTrace(deps.tracer, 'payment notice applied', charge.traceparent, () =>
      applyProviderView(deps, trx, charge, view, {
        source: 'webhook',
        at: providerInstant(notification.dateCreated),
        eventId: notification.id,
      }),
    );
    return result;
  }
}
