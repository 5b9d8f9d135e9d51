import { createTableMigration, type Migration } from '../db.ts';

/**
 * Every service's schema carries its own outbox (events to publish), inbox (events already handled) and dead letters
 * (events its consumers gave up on, kept until replayed).
 */
export const busMigrations: Migration[] = [
  {
    name: '0000_bus_outbox_inbox',
    async up(db) {
      await db.schema.createTable('outbox', (t) => {
        t.bigIncrements('seq');
        t.uuid('id').notNullable().unique();
        t.text('topic').notNullable();
        t.text('key').notNullable();
        t.jsonb('envelope').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('published_at', { useTz: true });
      });
      await db.raw('create index outbox_unpublished on outbox (seq) where published_at is null');
      await db.schema.createTable('inbox', (t) => {
        t.uuid('event_id').notNullable();
        t.text('handler').notNullable();
        t.text('outcome').notNullable();
        t.timestamp('handled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['event_id', 'handler']);
      });
    },
  },
  createTableMigration(
    '0001_bus_dead_letters',
    'dead_letters',
    (t, db) => {
      // The id of the bus.dead-letter event announcing it, so one id names it on the topic and here.
      t.uuid('id').primary();
      t.text('group').notNullable();
      t.text('topic').notNullable();
      // A dead letter keeps the envelope as the outbox kept it, with why and how often it failed.
      // Null when the message was not an envelope at all (then `envelope` is {raw}).
      t.uuid('event_id');
      t.jsonb('envelope').notNullable();
      t.text('error').notNullable();
      t.integer('attempts').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('replayed_at', { useTz: true });
    },
    'create index dead_letters_unreplayed on dead_letters (created_at) where replayed_at is null',
  ),
];
