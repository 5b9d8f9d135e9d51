import type { Migration } from '@ticketing/platform';

/**
 * The tickets service's tables: the keys that sign QR codes, tickets, every scan at the door and every reset, the
 * orders whose ticket must not stand, and the users whose personal data was erased.
 */
export const ticketsMigrations: Migration[] = [
  {
    name: '0001_signing_keys',
    async up(db) {
      await db.schema.createTable('signing_keys', (t) => {
        // Short: it travels inside every QR code.
        t.text('kid').primary();
        // Ed25519 keys as base64url: the raw 32-byte public key and the 32-byte private seed.
        t.text('public_key').notNullable();
        t.text('private_key').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        // A retired key neither signs nor verifies: QR codes it signed are refused.
        t.timestamp('retired_at', { useTz: true }).nullable();
      });
    },
  },
  {
    name: '0002_tickets',
    async up(db) {
      await db.schema.createTable('tickets', (t) => {
        t.uuid('id').primary();
        // One ticket per order: a redelivered order.paid can never make a second one.
        t.uuid('order_id').notNullable().unique();
        t.string('order_number', 64).notNullable();
        t.uuid('event_id').notNullable();
        t.uuid('user_id').notNullable();
        t.string('holder_name', 255).notNullable();
        t.string('holder_email', 255).notNullable();
        // Copied from order.paid, so the door answers with the event's title without asking anyone.
        t.string('event_title', 255).notNullable();
        t.timestamp('event_date', { useTz: true }).notNullable();
        t.string('event_location', 255).notNullable();
        // Signed into the QR code; raising it makes every QR code issued before invalid.
        t.smallint('version').notNullable().defaultTo(1);
        t.text('status').notNullable().defaultTo('valid');
        // The signed text the QR code carries (for the current version).
        t.text('qr_text').notNullable();
        t.timestamp('used_at', { useTz: true }).nullable();
        t.uuid('used_by').nullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.check(`status in ('valid', 'cancelled')`, [], 'tickets_status_known');
        t.check('version between 1 and 255', [], 'tickets_version_one_byte');
        t.check('(used_at is null) = (used_by is null)', [], 'tickets_used_by_whom');
        t.index(['event_id'], 'tickets_event_id');
      });
    },
  },
  {
    name: '0003_scans_resets',
    async up(db) {
      await db.schema.createTable('scans', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        // Null when the QR code did not name a ticket we could trust (bad format or signature).
        t.uuid('ticket_id').nullable();
        t.uuid('scanned_by').notNullable();
        t.timestamp('scanned_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.text('code').notNullable();
        // The event the door was checking in, when the scanner said.
        t.uuid('door_event_id').nullable();
        t.index(['ticket_id', 'scanned_at'], 'scans_ticket_id');
      });
      await db.schema.createTable('resets', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('ticket_id').notNullable().references('id').inTable('tickets');
        t.uuid('reset_by').notNullable();
        t.timestamp('reset_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        // The check-in the reset undid.
        t.timestamp('previous_used_at', { useTz: true }).notNullable();
        t.uuid('previous_used_by').notNullable();
        t.index(['ticket_id'], 'resets_ticket_id');
      });
    },
  },
  {
    name: '0004_cancellations_erasure',
    async up(db) {
      // Kept by order id, whatever comes first: a ticket issued after its order was refunded is born cancelled.
      await db.schema.createTable('order_cancellations', (t) => {
        t.uuid('order_id').primary();
        t.text('reason').notNullable();
        t.timestamp('cancelled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      // A deleted account: a ticket issued for it later carries no name nor e-mail.
      await db.schema.createTable('forgotten_users', (t) => {
        t.uuid('user_id').primary();
        t.timestamp('forgotten_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
];
