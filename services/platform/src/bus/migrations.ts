import type { Migration } from '../db.ts';

/** Every service's schema carries its own outbox (events to publish) and inbox (events already handled). */
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
];
