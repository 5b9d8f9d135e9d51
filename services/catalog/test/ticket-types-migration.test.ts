import { randomUUID } from 'node:crypto';
import { createDb, migrate } from '@ticketing/platform';
import { dropSchemas, TEST_DATABASE_URL, uniqueName } from '@ticketing/testkit';
import { catalogMigrations } from '../src/data/migrations.ts';

const schema = uniqueName('catalog_ticket_types');
const db = createDb(TEST_DATABASE_URL, schema, 2);
afterAll(async () => {
  await db.destroy();
  await dropSchemas([schema]);
});

test("an event stored before ticket types sells one, 'Ingresso', named by the event's id, counting its open orders", async () => {
  const before = catalogMigrations.slice(
    0,
    catalogMigrations.findIndex((m) => m.name === '0010_ticket_types'),
  );
  await migrate(db, schema, before);
  const [event, quiet] = [randomUUID(), randomUUID()];
  for (const [id, price] of [
    [event, '150.00'],
    [quiet, '80.50'],
  ]) {
    await db('events').insert({
      id,
      title: 'Antigo',
      date: new Date('2030-05-10T12:00:00Z'),
      location: 'Recife – PE',
      price,
    });
  }
  const courtesyLink = `courtesy-link:${randomUUID()}`;
  await db('holds').insert([
    { id: 'order:paid', event_id: event, quantity: 2, sold: 2 },
    { id: 'order:pending', event_id: event, quantity: 1 },
    { id: 'order:cancelled', event_id: event, quantity: 1, released_at: new Date() },
    // A courtesy link holds the event's spots alone: no ticket of a type.
    { id: courtesyLink, event_id: event, quantity: 3 },
  ]);
  await db('events').where({ id: event }).update({ current_attendees: 6 });

  await migrate(db, schema, catalogMigrations);

  expect(
    await db('ticket_types')
      .select('id', 'event_id', 'position', 'name', 'price', 'capacity', 'hidden', 'taken')
      .orderBy('price'),
  ).toEqual([
    {
      id: quiet,
      event_id: quiet,
      position: 0,
      name: 'Ingresso',
      price: '80.50',
      capacity: null,
      hidden: false,
      taken: 0,
    },
    {
      id: event,
      event_id: event,
      position: 0,
      name: 'Ingresso',
      price: '150.00',
      capacity: null,
      hidden: false,
      taken: 3,
    },
  ]);
  expect(
    await db('hold_lines')
      .select('hold_id', 'position', 'ticket_type_id', 'lot_id', 'price')
      .orderBy(['hold_id', 'position']),
  ).toEqual([
    { hold_id: 'order:paid', position: 0, ticket_type_id: event, lot_id: null, price: '150.00' },
    { hold_id: 'order:paid', position: 1, ticket_type_id: event, lot_id: null, price: '150.00' },
    { hold_id: 'order:pending', position: 0, ticket_type_id: event, lot_id: null, price: '150.00' },
  ]);
  // A count above its limit cannot be stored however it is written.
  const [lot] = await db('ticket_lots')
    .insert({ ticket_type_id: event, position: 0, price: '10.00', quantity: 1 })
    .returning('id');
  await expect(db('ticket_lots').where({ id: lot.id }).update({ taken: 2 })).rejects.toThrow(
    /ticket_lots_taken_within_quantity/,
  );
  await expect(db('ticket_types').where({ id: event }).update({ capacity: 2 })).rejects.toThrow(
    /ticket_types_taken_within_capacity/,
  );
  await expect(db('ticket_types').where({ id: quiet }).update({ taken: -1 })).rejects.toThrow(
    /ticket_types_taken_not_negative/,
  );
});
