import { randomUUID } from 'node:crypto';
import { createDb, migrate } from '@ticketing/platform';
import { WHOLE_EVENT_MS } from '@ticketing/proto';
import { dropSchemas, TEST_DATABASE_URL, uniqueName } from '@ticketing/testkit';
import { catalogMigrations } from '../src/data/migrations.ts';

const schema = uniqueName('catalog_sessions');
const db = createDb(TEST_DATABASE_URL, schema, 2);
afterAll(async () => {
  await db.destroy();
  await dropSchemas([schema]);
});

test("an event stored before sessions gets one, named by the event's own id, from its date for 4 hours", async () => {
  const before = catalogMigrations.slice(
    0,
    catalogMigrations.findIndex((m) => m.name === '0009_event_sessions'),
  );
  await migrate(db, schema, before);
  const events = [
    { id: randomUUID(), date: new Date('2030-05-10T12:00:00Z') },
    { id: randomUUID(), date: new Date('2021-01-15T22:30:00Z') },
  ];
  for (const { id, date } of events) {
    await db('events').insert({ id, title: 'Antigo', date, location: 'Recife – PE', price: '10.00' });
  }

  await migrate(db, schema, catalogMigrations);

  const sessions = await db('event_sessions')
    .select('id', 'event_id', 'starts_at', 'ends_at', 'title')
    .orderBy('starts_at');
  expect(sessions).toEqual(
    [...events]
      .sort((a, b) => a.date.getTime() - b.date.getTime())
      .map(({ id, date }) => ({
        id,
        event_id: id,
        starts_at: date,
        ends_at: new Date(date.getTime() + WHOLE_EVENT_MS),
        title: null,
      })),
  );
  // A session longer than a day, or ending before it starts, cannot be stored however it is written.
  const [first] = events;
  for (const hours of [25, -1]) {
    await expect(
      db('event_sessions').insert({
        event_id: first!.id,
        starts_at: first!.date,
        ends_at: new Date(first!.date.getTime() + hours * 60 * 60 * 1000),
      }),
    ).rejects.toThrow(/event_sessions_(at_most_a_day|end_after_start)/);
  }
});
