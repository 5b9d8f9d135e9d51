import { createForgottenUsersTable, type Migration } from '@ticketing/platform';

/**
 * Events and holders as their owners announced them, admissions per session, each event's certificate settings and
 * the certificates issued.
 */
export const certificatesMigrations: Migration[] = [
  {
    name: '0001_certificates',
    async up(db) {
      await db.schema.createTable('events', (t) => {
        t.uuid('id').primary();
        t.string('title', 255).notNullable();
        t.timestamp('date', { useTz: true }).notNullable();
        t.string('location', 255).notNullable();
        // Null for an event announced before events had sessions (see sessionsOrWhole).
        t.jsonb('sessions').nullable();
      });
      await db.schema.createTable('holders', (t) => {
        t.uuid('ticket_id').primary();
        t.uuid('order_id').notNullable().index();
        t.uuid('user_id').notNullable().index();
        t.uuid('event_id').notNullable().index();
        t.string('name', 255).notNullable();
        t.string('email', 255).notNullable();
        // Refunded, charged back or erased: never certified.
        t.timestamp('revoked_at', { useTz: true }).nullable();
      });
      // Orders refunded or charged back: a ticket of theirs announced later is never certified either.
      await db.schema.createTable('refunded_orders', (t) => {
        t.uuid('order_id').primary();
      });
      await db.schema.createTable('admissions', (t) => {
        t.uuid('ticket_id').notNullable();
        t.uuid('session_id').notNullable();
        t.timestamp('used_at', { useTz: true }).notNullable();
        t.primary(['ticket_id', 'session_id']);
      });
      await db.schema.createTable('settings', (t) => {
        t.uuid('event_id').primary();
        t.boolean('enabled').notNullable();
        t.jsonb('hours_by_session').notNullable().defaultTo('{}');
        t.decimal('minimum_attendance', 4, 3).nullable();
        t.text('text').nullable();
        t.string('signer_name', 120).nullable();
        t.string('signer_role', 120).nullable();
        t.text('signature_image').nullable();
        t.integer('auto_release_hours').nullable();
        // Claimed by the replica that releases the event's certificates automatically, in the release's transaction.
        t.timestamp('auto_released_at', { useTz: true }).nullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.schema.createTable('certificates', (t) => {
        t.uuid('id').primary();
        t.string('code', 19).notNullable().unique();
        t.uuid('ticket_id').notNullable();
        t.uuid('order_id').notNullable().index();
        t.uuid('user_id').notNullable().index();
        t.uuid('event_id').notNullable().index();
        t.string('holder_name', 255).notNullable();
        t.string('holder_email', 255).notNullable();
        t.decimal('hours', 6, 2).notNullable();
        // The sessions attended, with their hours, as printed.
        t.jsonb('sessions').notNullable();
        // The text and signer as printed, so a later change of the settings does not rewrite what was issued.
        t.text('body').notNullable();
        t.string('signer_name', 120).nullable();
        t.string('signer_role', 120).nullable();
        t.enu('status', ['valid', 'replaced', 'revoked']).notNullable().defaultTo('valid');
        t.string('replaces', 19).nullable();
        t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      // A ticket has one certificate standing: a second issue, however timed, finds the first.
      await db.raw(
        `create unique index certificates_once_per_ticket on certificates (ticket_id) where status <> 'replaced'`,
      );
      await createForgottenUsersTable(db);
    },
  },
  {
    // A ticket may be held by someone other than its buyer: the certificate is the holder's, found by their e-mail.
    // Tickets before were held by their buyer.
    name: '0002_holders_not_buyers',
    async up(db) {
      for (const table of ['holders', 'certificates']) {
        await db.schema.alterTable(table, (t) => {
          // The buyer (the account user_id names) holds the ticket: theirs to read, and to erase with the account.
          t.boolean('buyer_holds').notNullable().defaultTo(true);
        });
      }
      await db.raw('create index certificates_holder_email on certificates (lower(holder_email))');
    },
  },
];
