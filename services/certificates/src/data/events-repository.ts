import type { Knex } from '@ticketing/platform';
import type { EventSession } from '@ticketing/proto';

export interface EventRow {
  id: string;
  title: string;
  date: Date;
  location: string;
  sessions: EventSession[] | null;
}

export interface SettingsRow {
  event_id: string;
  enabled: boolean;
  hours_by_session: Record<string, number>;
  minimum_attendance: string | null;
  text: string | null;
  signer_name: string | null;
  signer_role: string | null;
  signature_image: string | null;
  auto_release_hours: number | null;
  auto_released_at: Date | null;
}

/** The event as catalog last announced it. */
export async function saveEvent(trx: Knex.Transaction, event: EventRow): Promise<void> {
  await trx('events')
    .insert({ ...event, sessions: event.sessions === null ? null : JSON.stringify(event.sessions) })
    .onConflict('id')
    .merge();
}

export const findEvent = (db: Knex, id: string): Promise<EventRow | undefined> => db('events').where({ id }).first();

export const findSettings = (db: Knex, eventId: string): Promise<SettingsRow | undefined> =>
  db('settings').where({ event_id: eventId }).first();

export async function saveSettings(
  db: Knex,
  settings: Omit<SettingsRow, 'auto_released_at' | 'minimum_attendance'> & { minimum_attendance: number | null },
): Promise<void> {
  await db('settings')
    .insert({ ...settings, hours_by_session: JSON.stringify(settings.hours_by_session), updated_at: db.fn.now() })
    .onConflict('event_id')
    .merge();
}

/** The events whose automatic release has not run: the periodic job checks which are due. */
export const pendingAutoReleases = (db: Knex): Promise<SettingsRow[]> =>
  db('settings').where({ enabled: true }).whereNotNull('auto_release_hours').whereNull('auto_released_at');

/** Claims an event's automatic release for this transaction: false when another replica has it. */
export async function claimAutoRelease(trx: Knex.Transaction, eventId: string): Promise<boolean> {
  const claimed = await trx('settings')
    .where({ event_id: eventId, enabled: true })
    .whereNull('auto_released_at')
    .update({ auto_released_at: trx.fn.now() });
  return claimed === 1;
}
