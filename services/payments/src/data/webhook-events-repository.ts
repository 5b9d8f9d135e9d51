import type { Knex } from '@ticketing/platform';

/** Whether a notification with this id was already stored (a repeated delivery). */
export async function webhookEventSeen(db: Knex, id: string): Promise<boolean> {
  return Boolean(await db('webhook_events').where({ id }).first('id'));
}

/**
 * Records a notification by its id, with its outcome when already known; false when that id was already stored (a
 * repeated delivery).
 */
export async function insertWebhookEvent(
  db: Knex,
  event: { id: string; event: string; paymentId: string | null; payload: unknown },
  outcome?: string,
): Promise<boolean> {
  const inserted = await db('webhook_events')
    .insert({
      id: event.id,
      event: event.event,
      payment_id: event.paymentId,
      payload: JSON.stringify(event.payload),
      ...(outcome ? { outcome } : {}),
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  return inserted.length === 1;
}

export async function setWebhookOutcome(trx: Knex.Transaction, id: string, outcome: string): Promise<void> {
  await trx('webhook_events').where({ id }).update({ outcome });
}
