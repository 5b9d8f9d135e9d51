import type { Knex, Logger } from '@ticketing/platform';
import type { EventPayload, InvoiceStatus } from '@ticketing/proto';
import { recordTimeline, type TimelineNote } from '../data/timeline-repository.ts';

type InvoiceChange = EventPayload<'invoice.changed'>;

/** What the back office reads of a nota fiscal: issued (its PDF), refused (why), cancelled; the steps between, nothing. */
const NOTES: Partial<Record<InvoiceStatus, (change: InvoiceChange) => TimelineNote>> = {
  authorized: (change) => ({ kind: 'invoice_authorized', detail: change.pdfUrl ?? change.invoiceId }),
  error: (change) => ({ kind: 'invoice_error', detail: change.reason }),
  cancelled: () => ({ kind: 'invoice_cancelled' }),
};

/** The order's nota fiscal moved (payments keeps it): noted on the order's timeline. */
export async function invoiceChanged(logger: Logger, trx: Knex.Transaction, change: InvoiceChange): Promise<void> {
  const note = NOTES[change.status];
  if (!note) return;
  await recordTimeline(trx, change.orderId, { ...note(change), at: change.at });
  logger.info({ orderId: change.orderId, invoiceId: change.invoiceId, status: change.status }, 'invoice noted');
}
