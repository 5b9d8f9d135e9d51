import type { Knex } from '@ticketing/platform';

/** Whether a notification with this id was already stored (a repeated delivery). */
export async function webhookEventSeen(db: Knex, id: string): Promise<boolean> {
  return Boolean(await db('webhook_events').where({ id }).first('id'));
}

/** Records a notification by its id; false when that id was already stored (a repeated delivery). */
export async function insertWebhookEvent(
  trx: Knex.Transaction,
  event: { id: string; event: string; paymentId: string | null; payload: unknown },
): Promise<boolean> {
  const inserted = await trx('webhook_events')
    .insert({ id: event.id, event: event.event, payment_id: event.paymentId, payload: JSON.stringify(event.payload) })
    .onConflict('id')
    .ignore()
    .returning('id');
  return inserted.length === 1;
}

export async function setWebhookOutcome(trx: Knex.Transaction, id: string, outcome: string): Promise<void> {
  await trx('webhook_events').where({ id }).update({ outcome });
}
