import {
  createDoorAssignmentsTable,
  createForgottenUsersTable,
  createTableMigration,
  type Migration,
} from '@ticketing/platform';

/**
 * The tickets service's tables: the keys that sign QR codes, tickets, every scan at the door and every reset, the
 * orders whose ticket must not stand, and the users whose personal data was erased.
 */
export const ticketsMigrations: Migration[] = [
  createTableMigration('0001_signing_keys', 'signing_keys', (t, db) => {
    // Short: it travels inside every QR code.
    t.text('kid').primary();
    // Ed25519 keys as base64url: the raw 32-byte public key and the 32-byte private seed.
    t.text('public_key').notNullable();
    t.text('private_key').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // A retired key neither signs nor verifies: QR codes it signed are refused.
    t.timestamp('retired_at', { useTz: true }).nullable();
  }),
  createTableMigration('0002_tickets', 'tickets', (t, db) => {
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
  }),
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
      await createForgottenUsersTable(db);
    },
  },
  {
    name: '0005_door_devices',
    async up(db) {
      // Every change to a ticket takes the next revision: a scanner asks for what changed after the last it saw.
      await db.raw('create sequence ticket_revisions');
      await db.schema.alterTable('tickets', (t) => {
        t.bigInteger('revision').notNullable().defaultTo(db.raw("nextval('ticket_revisions')"));
        // Digits only, from the paid order: the door finds a guest by CPF and shows it masked.
        t.string('holder_cpf', 11).nullable();
        // The scanner device that admitted the ticket, for arrivals per device and offline conflicts.
        t.text('used_device').nullable();
        t.index(['event_id', 'revision'], 'tickets_event_revision');
      });
      // A writer holds its event's revision lock (shared) from drawing a revision until it commits, so a scanner's
      // read can wait for every revision already drawn to be visible (see committedRevision).
      await db.raw(`
        create function tickets_next_revision() returns trigger language plpgsql as $$
        begin
          perform pg_advisory_xact_lock_shared(hashtext('ticket-revision:' || current_schema() || ':' || new.event_id));
          new.revision := nextval('ticket_revisions');
          return new;
        end $$`);
      await db.raw(`
        create trigger tickets_revision_insert before insert on tickets
        for each row execute function tickets_next_revision()`);
      await db.raw(`
        create trigger tickets_revision before update on tickets
        for each row when (old.* is distinct from new.*) execute function tickets_next_revision()`);
      await db.schema.alterTable('scans', (t) => {
        t.text('device_id').nullable();
        // Who was at the device, as the token named them, for the door's per-device counts.
        t.string('staff_name', 255).nullable();
        // A reading the device decided by itself and sent later: recorded once however often it is sent.
        t.uuid('reading_id').nullable().unique();
        // When the device read it (offline readings arrive later than they happened).
        t.timestamp('read_at', { useTz: true }).nullable();
        t.index(['door_event_id', 'scanned_at'], 'scans_door_event');
      });
      // A ticket admitted offline on two devices: the first admission stands, both devices are told.
      await db.schema.createTable('door_conflicts', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('ticket_id').notNullable().references('id').inTable('tickets');
        t.uuid('event_id').notNullable();
        t.text('kept_device').notNullable();
        t.timestamp('kept_at', { useTz: true }).notNullable();
        t.text('other_device').notNullable();
        t.timestamp('other_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['event_id', 'kept_device'], 'door_conflicts_kept');
        t.index(['event_id', 'other_device'], 'door_conflicts_other');
      });
    },
  },
  {
    name: '0006_ticket_payment_method',
    async up(db) {
      await db.schema.alterTable('tickets', (t) => {
        // From order.paid, for the participants' list; null on tickets issued before orders sent it.
        t.text('payment_method').nullable();
        t.check(`payment_method in ('pix', 'credit_card', 'boleto', 'courtesy')`, [], 'tickets_payment_method_known');
      });
    },
  },
  {
    name: '0007_door_assignments',
    async up(db) {
      // The events each door staffer may work, as identity last announced them (the full set each time).
      await createDoorAssignmentsTable(db);
    },
  },
  {
    // The private halves move to a table of their own that only the schema's owner (the worker) reads: the door
    // API works in this schema under a role of its own and verifies with the public halves alone.
    name: '0008_signing_key_secrets',
    async up(db) {
      await db.schema.createTable('signing_key_secrets', (t) => {
        t.text('kid').primary().references('kid').inTable('signing_keys');
        t.text('private_key').notNullable();
      });
      await db.raw('insert into signing_key_secrets (kid, private_key) select kid, private_key from signing_keys');
      await db.schema.alterTable('signing_keys', (t) => t.dropColumn('private_key'));
      // Whatever default privileges gave other roles (the door API's) on creation, they lose here: the public keys
      // become read-only to them, the private ones out of reach.
      await db.raw(`do $$ declare r record; begin
          for r in select distinct c.relname, a.grantee::regrole::text as grantee from pg_class c, aclexplode(c.relacl) a
                    where c.oid in ('signing_keys'::regclass, 'signing_key_secrets'::regclass)
                      and a.grantee not in (0, c.relowner) loop
            execute format(case r.relname when 'signing_keys' then 'revoke insert, update, delete, truncate on %I from %s'
                                          else 'revoke all on %I from %s' end, r.relname, r.grantee);
          end loop;
        end $$`);
    },
  },
  {
    // An event's title, date and location, kept once: catalog's event.changed updates them (the latest wins), an
    // order's copy only fills in until then. Tickets stop carrying copies that would go stale on a rename.
    name: '0009_event_snapshots',
    async up(db) {
      await db.schema.createTable('event_snapshots', (t) => {
        t.uuid('id').primary();
        t.string('title', 255).notNullable();
        t.timestamp('date', { useTz: true }).notNullable();
        t.string('location', 255).notNullable();
        // When catalog announced this version; null for a copy from an order.
        t.timestamp('changed_at', { useTz: true }).nullable();
      });
      await db.raw(`insert into event_snapshots (id, title, date, location)
        select distinct on (event_id) event_id, event_title, event_date, event_location
        from tickets order by event_id, created_at desc`);
      await db.schema.alterTable('tickets', (t) => t.dropColumns('event_title', 'event_date', 'event_location'));
    },
  },
  {
    // A ticket is admitted once per session of its event. The sessions it was admitted to live on its own row, so
    // one conditional statement still admits it (and races a withdrawal) exactly as when it admitted once. Existing
    // admissions were to the event's one session, whose id catalog made the event's.
    name: '0010_admissions_by_session',
    async up(db) {
      await db.schema.alterTable('tickets', (t) => {
        // Session id → { at, by, device }: when, by whom and at which scanner it was admitted to that session.
        t.jsonb('admissions').notNullable().defaultTo('{}');
      });
      await db.raw(`update tickets set admissions = jsonb_build_object(event_id::text,
        jsonb_build_object('at', used_at, 'by', used_by, 'device', used_device)) where used_at is not null`);
      await db.schema.alterTable('tickets', (t) => {
        t.dropChecks('tickets_used_by_whom');
        t.dropColumns('used_at', 'used_by', 'used_device');
      });
      // The event's sessions as catalog last announced them; null until it announces them (see sessionsOrWhole).
      await db.schema.alterTable('event_snapshots', (t) => t.jsonb('sessions').nullable());
      for (const table of ['scans', 'door_conflicts', 'resets']) {
        await db.schema.alterTable(table, (t) => t.uuid('session_id').nullable());
      }
      await db.raw('update scans set session_id = t.event_id from tickets t where t.id = scans.ticket_id');
      await db.raw('update door_conflicts set session_id = event_id');
      await db.raw('update resets set session_id = t.event_id from tickets t where t.id = resets.ticket_id');
      await db.raw('alter table door_conflicts alter column session_id set not null');
      await db.raw('alter table resets alter column session_id set not null');
    },
  },
  {
    // An order has a ticket per line, each with its own holder and type. Tickets issued before were the one line of
    // their order (0), held by the buyer, of no type.
    name: '0011_order_items',
    async up(db) {
      await db.schema.alterTable('tickets', (t) => {
        t.smallint('item_index').notNullable().defaultTo(0);
        t.dropUnique(['order_id']);
        // One ticket per line: a redelivered order.paid can never make a second one.
        t.unique(['order_id', 'item_index'], { indexName: 'tickets_order_item' });
        // The type as the order sold it; null on tickets issued before types existed.
        t.uuid('ticket_type_id').nullable();
        t.string('ticket_type_name', 255).nullable();
        t.boolean('ticket_type_requires_document').nullable();
        // Who paid, when the holder may be someone else; null on tickets issued before (the holder was the buyer).
        t.string('buyer_name', 255).nullable();
        t.string('buyer_email', 255).nullable();
        t.check(
          '(ticket_type_id is null) = (ticket_type_name is null) and (ticket_type_id is null) = (ticket_type_requires_document is null)',
          [],
          'tickets_type_whole',
        );
      });
      // A holder's own tickets are found by the e-mail their account signs in with.
      await db.raw('create index tickets_holder_email on tickets (lower(holder_email))');
    },
  },
];
