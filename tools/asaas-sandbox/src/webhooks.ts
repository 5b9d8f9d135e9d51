import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { Store } from './store.ts';
import type { InvoiceNotification, Notification, SandboxInvoice, SandboxOptions, SandboxPayment } from './types.ts';
import { brasiliaNow } from './values.ts';

/** Asaas's gaps between webhook attempts, in seconds; hourly after the list ends. */
const RETRY_GAPS_S = [30, 60, 210, 300, 900, 1500, 3600, 3600, 3600, 3600, 3600, 10800, 10800, 10800];

export interface Webhooks {
  /** The address and token deliveries go to; tests point it elsewhere once the receiver is up. */
  target: { url?: string; token?: string };
  /** Notifies `event` for the payment as it stands now, when the webhook is subscribed to it. */
  emit(event: string, payment: SandboxPayment): void;
  /** The same for a nota fiscal's event (`INVOICE_*`): its body carries `invoice` instead of `payment`. */
  emitInvoice(event: string, invoice: SandboxInvoice): void;
  /** Deliveries under way or held back for reordering. */
  readonly pending: number;
}

/**
 * The webhook: each notification is POSTed with the `asaas-access-token` header and retried with the provider's
 * growing gaps until a 200 (or the attempts run out); the store's faults copy, delay and reorder deliveries.
 */
export function webhooks(store: Store, options: SandboxOptions, closing: AbortSignal): Webhooks {
  const scale = options.webhookRetryScale ?? 1;
  const maxAttempts = options.webhookMaxAttempts ?? 15;
  const timeoutMs = options.webhookTimeoutMs ?? 10_000;
  const target = { url: options.webhookUrl, token: options.webhookToken };
  const { faults } = store;
  let held: (Notification | InvoiceNotification)[] = [];
  let underWay = 0;

  async function deliverOne(notification: Notification | InvoiceNotification, copy: number): Promise<void> {
    if (faults.webhookDelayMs > 0) await sleep(faults.webhookDelayMs, undefined, { signal: closing });
    const body = JSON.stringify(notification);
    for (let attempt = 1; attempt <= maxAttempts && !closing.aborted; attempt++) {
      let status: number | 'error' = 'error';
      if (target.url) {
        try {
          // undici's own request: fetch's streams and Response objects cost more than the delivery itself.
          const response = await request(target.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'user-agent': 'Asaas_Sandbox/3.0',
              ...(target.token ? { 'asaas-access-token': target.token } : {}),
            },
            body,
            signal: AbortSignal.any([closing, AbortSignal.timeout(timeoutMs)]),
          });
          status = response.statusCode;
          await response.body.dump();
        } catch {
          status = 'error';
        }
      }
      if (closing.aborted) return;
      const { id: eventId, event } = notification;
      const subject =
        'payment' in notification
          ? { paymentId: notification.payment.id }
          : { paymentId: notification.invoice.payment, invoiceId: notification.invoice.id };
      store.deliveries.push({ eventId, event, ...subject, copy, attempt, status });
      if (status === 200) return;
      const gap = RETRY_GAPS_S[Math.min(attempt - 1, RETRY_GAPS_S.length - 1)]!;
      await sleep(gap * 1000 * scale, undefined, { signal: closing });
    }
  }

  async function deliver(notification: Notification | InvoiceNotification): Promise<void> {
    const copies = Math.max(1, Math.trunc(faults.webhookCopies));
    await Promise.all(Array.from({ length: copies }, (_, i) => deliverOne(notification, i + 1)));
  }

  function track(work: Promise<void>): void {
    underWay++;
    work.catch(() => {}).finally(() => underWay--);
  }

  const subscribed = (event: string) => !options.webhookEvents || options.webhookEvents.has(event);
  const newEvent = (event: string) => ({
    id: `evt_${randomBytes(12).toString('hex')}`,
    event,
    dateCreated: brasiliaNow(),
  });

  function send(notification: Notification | InvoiceNotification): void {
    if (!target.url) return;
    if (faults.reorderNext > 0) {
      held.push(notification);
      faults.reorderNext--;
      if (faults.reorderNext === 0) {
        const batch = held.reverse();
        held = [];
        track(
          (async () => {
            for (const item of batch) await deliver(item);
          })(),
        );
      }
      return;
    }
    track(deliver(notification));
  }

  return {
    target,
    emit(event, payment) {
      if (!subscribed(event)) return;
      const notification: Notification = { ...newEvent(event), payment: structuredClone(payment) };
      store.notifications.push(notification);
      send(notification);
    },
    emitInvoice(event, invoice) {
      if (!subscribed(event)) return;
      const notification: InvoiceNotification = { ...newEvent(event), invoice: structuredClone(invoice) };
      store.invoiceNotifications.push(notification);
      send(notification);
    },
    get pending() {
      return underWay + held.length;
    },
  };
}
