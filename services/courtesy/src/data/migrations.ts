import { personalDataColumns, type Migration } from '@ticketing/platform';

/** Courtesy links, the guests who redeemed them, the promotional uses of orders, mass-send jobs, and coupons. */
export const courtesyMigrations: Migration[] = [
  {
    name: '0001_links',
    async up(db) {
      await db.schema.createTable('courtesy_links', (t) => {
        t.uuid('id').primary();
        t.string('code', 100).notNullable().unique();
        t.uuid('event_id').notNullable();
        // What the lists, the redemption page and the invitations show; kept current from event.changed.
        t.string('event_title', 255).notNullable();
        t.timestamp('event_date', { useTz: true }).notNullable();
        t.string('event_location', 255).notNullable();
        t.string('recipient_email', 255).nullable();
        t.string('recipient_name', 255).nullable();
        t.integer('ticket_count').notNullable().defaultTo(1);
        t.integer('used_count').notNullable().defaultTo(0);
        t.decimal('override_price', 10, 2).nullable();
        t.uuid('created_by').notNullable();
        t.boolean('is_active').notNullable().defaultTo(true);
        // The catalog hold of a free link's spots; released (keeping the used ones) when the link is deactivated.
        t.string('hold_id', 100).nullable();
        t.timestamp('hold_released_at', { useTz: true }).nullable();
        t.uuid('job_id').nullable();
        t.timestamps(true, true);
        t.check('ticket_count between 1 and 100', [], 'courtesy_links_ticket_count_range');
        t.check('used_count >= 0 and used_count <= ticket_count', [], 'courtesy_links_used_within_count');
        t.check('override_price is null or override_price >= 0', [], 'courtesy_links_price_not_negative');
        t.index(['created_at'], 'courtesy_links_created_at');
        t.index(['event_id'], 'courtesy_links_event_id');
      });
      // A guest's personal data, as an account's.
      await db.schema.createTable('courtesy_attendees', (t) => {
        t.uuid('id').primary();
        t.string('name', 255).notNullable();
        t.string('email', 255).notNullable();
        personalDataColumns(t, true);
        t.string('occupation', 255).nullable();
        t.string('event_title', 255).notNullable();
        t.timestamps(true, true);
      });
      // One redemption per user and link: the unique key refuses a second one whatever the timing.
      await db.schema.createTable('courtesy_redemptions', (t) => {
        t.uuid('id').primary();
        t.uuid('link_id').notNullable().references('id').inTable('courtesy_links');
        t.uuid('user_id').notNullable();
        t.uuid('attendee_id').notNullable().references('id').inTable('courtesy_attendees');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.unique(['link_id', 'user_id'], { indexName: 'courtesy_redemptions_once_per_user' });
      });
      // The use of a promotional link an order took; given back when the order is cancelled or expires.
      await db.schema.createTable('promo_uses', (t) => {
        t.uuid('order_id').primary();
        t.uuid('link_id').notNullable().references('id').inTable('courtesy_links');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
    },
  },
  {
    name: '0002_mass_send',
    async up(db) {
      await db.schema.createTable('attachments', (t) => {
        t.uuid('id').primary();
        t.string('filename', 255).notNullable();
        t.string('content_type', 100).notNullable();
        t.binary('content').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.schema.createTable('mass_send_jobs', (t) => {
        t.uuid('id').primary();
        t.uuid('created_by').notNullable();
        // The CSV's SHA-256: the same file sent again within a day needs a confirmation.
        t.string('file_hash', 64).notNullable();
        t.string('status', 20).notNullable().defaultTo('queued');
        t.integer('total').notNullable();
        t.integer('sent').notNullable().defaultTo(0);
        t.integer('failed').notNullable().defaultTo(0);
        t.uuid('attachment_id').nullable().references('id').inTable('attachments');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('finished_at', { useTz: true }).nullable();
        t.check(`status in ('queued', 'running', 'done')`, [], 'mass_send_jobs_status_known');
        t.index(['file_hash', 'created_at'], 'mass_send_jobs_file_hash');
      });
      await db.schema.createTable('mass_send_rows', (t) => {
        t.uuid('job_id').notNullable().references('id').inTable('mass_send_jobs');
        t.integer('line').notNullable();
        t.string('name', 255).notNullable();
        t.string('email', 255).notNullable();
        t.integer('ticket_count').notNullable();
        t.uuid('event_id').notNullable();
        // Chosen up front, so a row retried after a crash makes the same link and the same catalog hold.
        t.uuid('link_id').notNullable().unique();
        t.string('state', 20).notNullable().defaultTo('pending');
        t.text('error').nullable();
        t.primary(['job_id', 'line']);
        t.check(`state in ('pending', 'sent', 'failed')`, [], 'mass_send_rows_state_known');
      });
      await db.raw(`create index mass_send_rows_pending on mass_send_rows (job_id, line) where state = 'pending'`);
    },
  },
  {
    name: '0003_erasure',
    async up(db) {
      // An erased guest keeps the redemption (which link, when) but none of what the form said about them.
      await db.schema.alterTable('courtesy_attendees', (t) => {
        t.string('cpf', 14).nullable().alter();
        t.string('phone', 20).nullable().alter();
        t.date('birth_date').nullable().alter();
        t.string('address', 500).nullable().alter();
      });
    },
  },
  {
    name: '0004_redemption_orders',
    async up(db) {
      // The order each redemption or promotional use became, as order.paid tells: the report shows it.
      await db.schema.alterTable('courtesy_redemptions', (t) => {
        t.uuid('order_id').nullable();
        t.string('order_number', 50).nullable();
        t.index(['link_id', 'created_at'], 'courtesy_redemptions_link_created');
      });
      await db.schema.alterTable('promo_uses', (t) => {
        t.string('order_number', 50).nullable();
        t.index(['link_id', 'created_at'], 'promo_uses_link_created');
      });
    },
  },
  {
    name: '0005_link_ticket_types',
    async up(db) {
      // The type a link's tickets are of, as the catalog named it when the link was made; null for the links made
      // before links named one (their tickets are of the event's one type).
      await db.schema.alterTable('courtesy_links', (t) => {
        t.uuid('ticket_type_id').nullable();
        t.string('ticket_type_name', 255).nullable();
        t.boolean('ticket_type_requires_document').nullable();
      });
    },
  },
  {
    name: '0006_coupons',
    async up(db) {
      await db.schema.createTable('coupons', (t) => {
        t.uuid('id').primary();
        // Typed in any case at checkout, so stored upper-cased: one coupon per code whatever the case.
        t.string('code', 40).notNullable().unique();
        // Null: every event.
        t.uuid('event_id').nullable();
        // What the back office lists; kept current from event.changed, as the links' snapshots are.
        t.string('event_title', 255).nullable();
        t.integer('percent_off').nullable();
        t.decimal('amount_off', 12, 2).nullable();
        // Null: no cap.
        t.integer('max_uses').nullable();
        t.integer('used_count').notNullable().defaultTo(0);
        t.timestamp('starts_at', { useTz: true }).nullable();
        t.timestamp('ends_at', { useTz: true }).nullable();
        // Empty: every type of the event.
        t.specificType('ticket_type_ids', 'uuid[]').notNullable().defaultTo('{}');
        t.boolean('is_active').notNullable().defaultTo(true);
        t.uuid('created_by').notNullable();
        t.timestamps(true, true);
        t.check('code = upper(code)', [], 'coupons_code_upper_case');
        t.check('(percent_off is null) <> (amount_off is null)', [], 'coupons_one_discount');
        t.check('percent_off is null or percent_off between 1 and 100', [], 'coupons_percent_range');
        t.check('amount_off is null or amount_off > 0', [], 'coupons_amount_positive');
        t.check('max_uses is null or max_uses >= 1', [], 'coupons_max_uses_positive');
        t.check('used_count >= 0 and (max_uses is null or used_count <= max_uses)', [], 'coupons_used_within_max');
        t.check('starts_at is null or ends_at is null or starts_at < ends_at', [], 'coupons_window_ordered');
        t.check("ticket_type_ids = '{}' or event_id is not null", [], 'coupons_types_need_event');
        t.index(['created_at'], 'coupons_created_at');
        t.index(['event_id'], 'coupons_event_id');
      });
      // The use of a coupon an order took. Given back, it stays with `released_at`: a late payment takes it again.
      await db.schema.createTable('coupon_uses', (t) => {
        t.uuid('order_id').primary();
        t.uuid('coupon_id').notNullable().references('id').inTable('coupons');
        t.timestamp('taken_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('released_at', { useTz: true }).nullable();
        t.index(['coupon_id'], 'coupon_uses_coupon_id');
      });
    },
  },
];
