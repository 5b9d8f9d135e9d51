import { createDoorAssignmentsTable, type Migration } from '@ticketing/platform';
import { WHOLE_EVENT_MS } from '@ticketing/proto';
import { headingTextOf } from './search-text.ts';

/** The catalog's tables: events (with their availability) and the holds placed against them. */
export const catalogMigrations: Migration[] = [
  {
    name: '0001_events',
    async up(db) {
      await db.schema.createTable('events', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.string('title', 255).notNullable();
        t.text('description').notNullable().defaultTo('');
        t.timestamp('date', { useTz: true }).notNullable();
        t.string('location', 255).notNullable();
        t.decimal('price', 10, 2).notNullable();
        t.string('image_url', 500).nullable();
        t.integer('max_attendees').nullable();
        t.integer('current_attendees').notNullable().defaultTo(0);
        t.boolean('is_active').notNullable().defaultTo(true);
        t.boolean('listed').notNullable().defaultTo(true);
        t.text('search_text').notNullable().defaultTo('');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.check('current_attendees >= 0', [], 'events_current_attendees_not_negative');
        t.check(
          'max_attendees is null or current_attendees <= max_attendees',
          [],
          'events_current_attendees_within_max',
        );
        t.check('max_attendees is null or max_attendees > 0', [], 'events_max_attendees_positive');
        t.check('price >= 0', [], 'events_price_not_negative');
      });
      // The public listing reads only upcoming, active, listed events in date order.
      await db.raw('create index events_upcoming on events (date) where is_active and listed');
    },
  },
  {
    name: '0002_holds',
    async up(db) {
      await db.schema.createTable('holds', (t) => {
        t.text('id').primary();
        t.uuid('event_id').notNullable().references('id').inTable('events');
        t.integer('quantity').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('released_at', { useTz: true }).nullable();
        t.check('quantity > 0', [], 'holds_quantity_positive');
        t.index(['event_id'], 'holds_event_id');
      });
    },
  },
  {
    name: '0003_holds_kept',
    async up(db) {
      // A released hold may keep some spots taken: a courtesy link keeps those its guests already used.
      await db.schema.alterTable('holds', (t) => {
        t.integer('kept').notNullable().defaultTo(0);
        t.check('kept >= 0 and kept <= quantity', [], 'holds_kept_within_quantity');
      });
    },
  },
  {
    name: '0004_back_office',
    async up(db) {
      // A draft has no publication date; every event that existed was already public.
      await db.schema.alterTable('events', (t) => {
        t.timestamp('published_at', { useTz: true }).nullable().defaultTo(db.fn.now());
        t.text('heading_text').notNullable().defaultTo('');
      });
      const events = (await db('events').select('id', 'title', 'location')) as {
        id: string;
        title: string;
        location: string;
      }[];
      for (const event of events) {
        await db('events')
          .where({ id: event.id })
          .update({ heading_text: headingTextOf(event) });
      }
      await db.raw('update events set published_at = created_at');
      await db.raw('drop index events_upcoming');
      await db.raw(
        'create index events_upcoming on events (date) where is_active and listed and published_at is not null',
      );
      // The spots of a hold already sold (a paid order) or given (a used courtesy); the rest are only reserved.
      await db.schema.alterTable('holds', (t) => {
        t.integer('sold').notNullable().defaultTo(0);
        t.check('sold >= 0 and sold <= quantity', [], 'holds_sold_within_quantity');
      });
      // Uploaded event images, addressed by the SHA-256 of their content: every replica serves them from here.
      await db.schema.createTable('event_images', (t) => {
        t.text('sha256').primary();
        t.text('content_type').notNullable();
        t.binary('content').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  {
    name: '0005_event_cancellation',
    async up(db) {
      // An administrator's cancellation is final: when and why are kept together, and only together.
      await db.schema.alterTable('events', (t) => {
        t.timestamp('cancelled_at', { useTz: true }).nullable();
        t.text('cancel_reason').nullable();
        t.check('(cancelled_at is null) = (cancel_reason is null)', [], 'events_cancelled_with_reason');
      });
    },
  },
  {
    name: '0006_door_assignments',
    async up(db) {
      // The events each door staffer may work, as identity last announced them: their door lists only these.
      await createDoorAssignmentsTable(db);
    },
  },
  {
    name: '0007_own_event_images',
    async up(db) {
      // An event's image is one of the product's own (an upload, or one shipped with the site): an address elsewhere,
      // accepted before, would have every visitor's browser load it; it is dropped and refused from now on.
      const upload = '^/api/events/images/[0-9a-f]{64}$';
      const shipped = String.raw`^/images/events/[a-z0-9][a-z0-9-]*\.(svg|png|jpg|jpeg|webp)$`;
      const ownImage = `'${upload}|${shipped}'`;
      await db.raw(`update events set image_url = null where image_url !~ ${ownImage}`);
      await db.raw(`alter table events add constraint events_own_image check (image_url ~ ${ownImage})`);
    },
  },
  {
    name: '0008_provisional_holds',
    async up(db) {
      // A provisional hold (an order being placed) is given back when this passes unless the order confirmed it.
      await db.schema.alterTable('holds', (t) => {
        t.timestamp('expires_at', { useTz: true }).nullable();
      });
      await db.raw(
        'create index holds_provisional on holds (expires_at) where expires_at is not null and released_at is null',
      );
    },
  },
  {
    name: '0009_event_sessions',
    async up(db) {
      // An event's days or blocks, each with its own door; the event's date is the first one's start. Overlaps are
      // refused by the use cases, which write a schedule under the event's row lock.
      await db.schema.createTable('event_sessions', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('event_id').notNullable().references('id').inTable('events');
        t.timestamp('starts_at', { useTz: true }).notNullable();
        t.timestamp('ends_at', { useTz: true }).notNullable();
        t.text('title').nullable();
        t.check('ends_at > starts_at', [], 'event_sessions_end_after_start');
        t.check("ends_at <= starts_at + interval '24 hours'", [], 'event_sessions_at_most_a_day');
        t.index(['event_id', 'starts_at'], 'event_sessions_event_start');
      });
      // Every event had one session: it keeps the event's id, which admissions recorded before sessions name.
      await db.raw(
        `insert into event_sessions (id, event_id, starts_at, ends_at)
         select id, id, date, date + make_interval(secs => ?) from events`,
        [WHOLE_EVENT_MS / 1000],
      );
    },
  },
  {
    name: '0010_ticket_types',
    async up(db) {
      // What an event sells: types (a student's, a professional's ticket), each at its price or in lots whose price
      // steps up by date or by tickets sold. `taken` counts the tickets held and sold, not given back; the use cases
      // take them under the event's row lock, and these checks are the last line of defence.
      await db.schema.createTable('ticket_types', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('event_id').notNullable().references('id').inTable('events');
        t.integer('position').notNullable();
        t.text('name').notNullable();
        t.decimal('price', 10, 2).notNullable();
        t.integer('capacity').nullable();
        t.boolean('hidden').notNullable().defaultTo(false);
        t.boolean('requires_document').notNullable().defaultTo(false);
        t.timestamp('sales_start_at', { useTz: true }).nullable();
        t.timestamp('sales_end_at', { useTz: true }).nullable();
        t.integer('taken').notNullable().defaultTo(0);
        t.check('price >= 0', [], 'ticket_types_price_not_negative');
        t.check('taken >= 0', [], 'ticket_types_taken_not_negative');
        t.check('capacity is null or (capacity > 0 and taken <= capacity)', [], 'ticket_types_taken_within_capacity');
        t.check(
          'sales_end_at is null or sales_start_at is null or sales_end_at > sales_start_at',
          [],
          'ticket_types_sales_window',
        );
        t.index(['event_id', 'position'], 'ticket_types_event_position');
      });
      await db.schema.createTable('ticket_lots', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.uuid('ticket_type_id').notNullable().references('id').inTable('ticket_types').onDelete('CASCADE');
        t.integer('position').notNullable();
        t.text('name').nullable();
        t.decimal('price', 10, 2).notNullable();
        t.timestamp('ends_at', { useTz: true }).nullable();
        t.integer('quantity').nullable();
        t.integer('taken').notNullable().defaultTo(0);
        t.check('price >= 0', [], 'ticket_lots_price_not_negative');
        t.check('taken >= 0', [], 'ticket_lots_taken_not_negative');
        t.check('quantity is null or (quantity > 0 and taken <= quantity)', [], 'ticket_lots_taken_within_quantity');
        t.index(['ticket_type_id', 'position'], 'ticket_lots_type_position');
      });
      // The tickets a hold took, one line each: a release gives back exactly the type and lot counts it took.
      await db.schema.createTable('hold_lines', (t) => {
        t.text('hold_id').notNullable().references('id').inTable('holds');
        t.integer('position').notNullable();
        t.uuid('ticket_type_id').notNullable().references('id').inTable('ticket_types').onDelete('CASCADE');
        t.uuid('lot_id').nullable().references('id').inTable('ticket_lots').onDelete('CASCADE');
        t.decimal('price', 10, 2).notNullable();
        t.primary(['hold_id', 'position']);
        t.index(['ticket_type_id'], 'hold_lines_ticket_type');
        t.index(['lot_id'], 'hold_lines_lot');
      });
      // Every event sold one ticket at its price: that ticket is now its type 'Ingresso', whose id is the event's, as
      // orders and tickets recorded before types name it. Its open holds (courtesy links' aside: they hold the
      // event's spots alone) become lines of it, and count as taken.
      await db.raw(
        `insert into ticket_types (id, event_id, position, name, price) select id, id, 0, 'Ingresso', price from events`,
      );
      await db.raw(
        `insert into hold_lines (hold_id, position, ticket_type_id, price)
         select holds.id, n, events.id, events.price
         from holds join events on events.id = holds.event_id, generate_series(0, holds.quantity - 1) as n
         where holds.released_at is null and not starts_with(holds.id, 'courtesy-link:')`,
      );
      await db.raw(
        `update ticket_types set taken = lines.count
         from (select ticket_type_id, count(*)::integer as count from hold_lines group by ticket_type_id) as lines
         where lines.ticket_type_id = ticket_types.id`,
      );
    },
  },
  {
    name: '0011_installment_terms',
    async up(db) {
      // How many card installments an event sells in, and the smallest one the provider accepts; events that never
      // said sell by card at once.
      await db.schema.alterTable('events', (t) => {
        t.integer('max_installments').notNullable().defaultTo(1);
        t.decimal('min_installment_value', 12, 2).notNullable().defaultTo('5.00');
        t.check('max_installments between 1 and 12', [], 'events_max_installments_range');
        t.check('min_installment_value >= 5', [], 'events_min_installment_value_at_least_five');
      });
    },
  },
];
