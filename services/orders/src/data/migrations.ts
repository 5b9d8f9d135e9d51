import { alterTableMigration, createForgottenUsersTable, type Migration } from '@ticketing/platform';

/**
 * The orders table: one row per purchase, with the charge, the event and buyer as they were, and the ticket; and the
 * users whose personal data was erased.
 */
export const ordersMigrations: Migration[] = [
  {
    name: '0001_orders',
    async up(db) {
      // Short numbers people can read over the phone: EF-000001, EF-000002, …
      await db.raw('create sequence order_numbers');
      await db.schema.createTable('orders', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        t.string('order_number', 20)
          .notNullable()
          .unique()
          .defaultTo(db.raw(`'EF-' || lpad(nextval('order_numbers')::text, 6, '0')`));
        t.uuid('user_id').notNullable();
        t.uuid('event_id').notNullable();
        t.uuid('courtesy_attendee_id').nullable();
        t.uuid('courtesy_link_id').nullable();
        t.string('cpf', 14).nullable();
        t.string('status', 50).notNullable().defaultTo('pending');
        t.string('payment_method', 20).notNullable();
        t.decimal('amount', 10, 2).notNullable();
        t.text('asaas_payment_id').nullable();
        // How the order was paid, as orders first kept it (payments keeps it with the charge now).
        for (const column of ['pix_qr_code', 'pix_payload', 'boleto_url', 'invoice_url']) t.text(column).nullable();
        t.timestamp('expires_at', { useTz: true }).nullable();
        t.timestamp('paid_at', { useTz: true }).nullable();
        t.timestamp('cancelled_at', { useTz: true }).nullable();
        t.timestamp('expired_at', { useTz: true }).nullable();
        t.timestamp('refunded_at', { useTz: true }).nullable();
        t.text('qr_code_data').nullable();
        t.boolean('qr_code_used').notNullable().defaultTo(false);
        t.timestamp('qr_code_used_at', { useTz: true }).nullable();
        t.timestamp('qr_code_reset_at', { useTz: true }).nullable();
        t.string('event_title', 255).notNullable();
        t.timestamp('event_date', { useTz: true }).notNullable();
        t.string('event_location', 255).notNullable();
        t.string('buyer_name', 255).notNullable();
        t.string('buyer_email', 255).notNullable();
        t.string('idempotency_key', 100).nullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.check(`status in ('pending', 'paid', 'cancelled', 'expired', 'refunded')`, [], 'orders_status_known');
        t.check(`payment_method in ('pix', 'credit_card', 'boleto')`, [], 'orders_payment_method_known');
        t.check('amount >= 0', [], 'orders_amount_not_negative');
        t.unique(['user_id', 'idempotency_key'], { indexName: 'orders_user_idempotency_key' });
        t.index(['user_id', 'created_at'], 'orders_user_newest');
      });
      // One pending order per buyer and event: a double click or a second tab finds the first one.
      await db.raw(
        `create unique index orders_one_pending_per_event on orders (user_id, event_id) where status = 'pending'`,
      );
      // The expiry sweep reads only pending orders, oldest deadline first.
      await db.raw(`create index orders_pending_expiry on orders (expires_at) where status = 'pending'`);
    },
  },
  {
    name: '0002_courtesy_orders',
    async up(db) {
      // A courtesy order is paid at R$ 0,00 when redeemed and has no payment method; a purchase always has one,
      // and orders_payment_method_known still checks its value.
      await db.raw('alter table orders alter column payment_method drop not null');
      await db.raw(
        `alter table orders add constraint orders_payment_method_or_courtesy
           check (payment_method is not null or courtesy_attendee_id is not null)`,
      );
      // One order per courtesy attendee: a redemption delivered again can never make a second order.
      await db.raw('create unique index orders_one_per_courtesy_attendee on orders (courtesy_attendee_id)');
    },
  },
  {
    name: '0003_refunds_erasure',
    async up(db) {
      await db.schema.alterTable('orders', (t) => {
        // Why the money of the order's charge went back. Also kept on an order that was never paid here (cancelled,
        // expired), so a confirmation of that charge arriving afterwards can never make it paid.
        t.text('refund_reason').nullable();
        // A late payment found no spot: the money is owed back until payments confirms it asked the provider.
        t.timestamp('refund_owed_since', { useTz: true }).nullable();
        t.check(`refund_reason in ('late_payment', 'refund', 'chargeback')`, [], 'orders_refund_reason_known');
      });
      await db.raw(
        'create index orders_refunds_owed on orders (refund_owed_since) where refund_owed_since is not null',
      );
      // A deleted account: events about it that arrive later never bring its personal data back.
      await createForgottenUsersTable(db);
    },
  },
  {
    name: '0004_requested_refunds',
    async up(db) {
      await db.schema.alterTable('orders', (t) => {
        // An administrator's refund or the buyer's withdrawal: who asked, when, and the administrator's words.
        t.uuid('refund_requested_by').nullable();
        t.timestamp('refund_requested_at', { useTz: true }).nullable();
        t.text('refund_note').nullable();
      });
      await db.raw('alter table orders drop constraint orders_refund_reason_known');
      await db.raw(
        `alter table orders add constraint orders_refund_reason_known
           check (refund_reason in ('late_payment', 'refund', 'withdrawal', 'chargeback'))`,
      );
    },
  },
  {
    name: '0005_back_office',
    async up(db) {
      await db.schema.alterTable('orders', (t) => {
        // What the provider pays out after its fee, as payment.confirmed tells it; null when it did not say.
        t.decimal('net_amount', 10, 2).nullable();
        // The first time the ticket came in at the door; a reset lets it in again but does not undo attendance.
        t.timestamp('first_checked_in_at', { useTz: true }).nullable();
      });
      await db.raw('update orders set first_checked_in_at = qr_code_used_at where qr_code_used_at is not null');
      // What happened to each order, written with each change and each event about it.
      await db.schema.createTable('order_timeline', (t) => {
        t.bigIncrements('id');
        t.uuid('order_id').notNullable().references('id').inTable('orders').onDelete('cascade');
        t.string('kind', 30).notNullable();
        t.timestamp('at', { useTz: true }).notNullable();
        t.text('detail').nullable();
        t.index(['order_id', 'at'], 'order_timeline_of_order');
      });
      for (const [kind, column] of [
        ['paid', 'paid_at'],
        ['cancelled', 'cancelled_at'],
        ['expired', 'expired_at'],
        ['refunded', 'refunded_at'],
        ['checked_in', 'first_checked_in_at'],
      ]) {
        await db.raw(
          `insert into order_timeline (order_id, kind, at) select id, ?, ?? from orders where ?? is not null`,
          [kind, column, column],
        );
      }
      // The back office's figures read one event's orders; its search lists the newest first.
      await db.raw('create index orders_event_status on orders (event_id, status)');
      await db.raw('create index orders_newest on orders (created_at desc, order_number desc)');
    },
  },
  // The boleto's digitable line, shown with its PDF until the order is paid (a bank's app reads it).
  alterTableMigration('0006_boleto_line', 'orders', (t) => {
    t.text('boleto_line').nullable();
  }),
  {
    name: '0007_event_cancelled_refunds',
    async up(db) {
      // An event its organizers cancelled refunds its paid orders (a courtesy one at R$ 0,00).
      await db.raw('alter table orders drop constraint orders_refund_reason_known');
      await db.raw(
        `alter table orders add constraint orders_refund_reason_known
           check (refund_reason in ('late_payment', 'refund', 'withdrawal', 'chargeback', 'event_cancelled'))`,
      );
    },
  },
  {
    name: '0008_holds_end_by_the_event',
    async up(db) {
      // A payment window never runs past the event's start: pending orders made before that rule end by it too.
      await db.raw(`update orders set expires_at = event_date where status = 'pending' and expires_at > event_date`);
    },
  },
  {
    name: '0009_withdrawal_requests',
    async up(db) {
      // A withdrawal waits for tickets to void the ticket before the money goes back.
      await db.raw('alter table orders add column withdrawal_requested_at timestamptz');
    },
  },
  {
    name: '0010_pending_by_cpf',
    async up(db) {
      // The cap on pending orders counts the buyer's CPF too: read by index, not by scanning every pending order.
      await db.raw(
        `create index orders_pending_cpf on orders ((regexp_replace(cpf, '\\D', '', 'g'))) where status = 'pending'`,
      );
    },
  },
  {
    name: '0011_pending_count_under_locks',
    async up(db) {
      // The cap on pending orders in the statement that records the order: the buyer's locks (the CPF's, then the
      // account's, the order every purchase takes them in) are held until that statement commits, and the count is a
      // query of its own (a volatile function's queries each read afresh), so it sees every order recorded by a
      // purchase that held them before.
      await db.raw(`
        create function pending_orders_locked(buyer uuid, cpf_digits text) returns bigint language plpgsql volatile as $$
        begin
          perform pg_advisory_xact_lock(hashtextextended('orders:pending:cpf:' || cpf_digits, 0));
          perform pg_advisory_xact_lock(hashtextextended('orders:pending:user:' || buyer, 0));
          return (
            select count(*) from orders
            where status = 'pending' and expires_at > now()
              and (user_id = buyer or regexp_replace(cpf, '\\D', '', 'g') = cpf_digits)
          );
        end $$`);
    },
  },
  {
    name: '0012_cpf_digits',
    async up(db) {
      // The CPF's digits kept with the row: the cap on pending orders compares them without a regular expression per
      // pending order, whatever plan the counts of a fresh sales opening lead PostgreSQL to.
      await db.raw(
        `alter table orders add column cpf_digits text generated always as (regexp_replace(cpf, '\\D', '', 'g')) stored`,
      );
      await db.raw('drop index orders_pending_cpf');
      await db.raw(`create index orders_pending_cpf on orders (cpf_digits) where status = 'pending'`);
      await db.raw('drop function pending_orders_locked(uuid, text)');
      // The same function as 0011 made it, now comparing the stored digits: 0011 stays as databases ran it.
      await db.raw(`
        create function pending_orders_locked(buyer uuid, digits text) returns bigint language plpgsql volatile as $$
        begin
          perform pg_advisory_xact_lock(hashtextextended('orders:pending:cpf:' || digits, 0));
          perform pg_advisory_xact_lock(hashtextextended('orders:pending:user:' || buyer, 0));
          return (
            select count(*) from orders
            where status = 'pending' and expires_at > now() and (user_id = buyer or cpf_digits = digits)
          );
        end $$`);
    },
  },
  {
    name: '0013_order_items',
    async up(db) {
      // An order's tickets: each its type, the lot and price it was sold at, and its holder. Orders made before had
      // one ticket, for the buyer (a courtesy's guest), of the one type the catalog gives every such event, named
      // 'Ingresso' with the event's id; its price is what was paid less the R$ 5,00 convenience fee (a courtesy's R$ 0,00).
      await db.schema.createTable('order_items', (t) => {
        t.uuid('order_id').notNullable().references('id').inTable('orders').onDelete('cascade');
        t.smallint('index').notNullable();
        t.uuid('ticket_type_id').notNullable();
        t.string('type_name', 255).notNullable();
        t.string('lot_name', 255).nullable();
        t.decimal('price', 10, 2).notNullable();
        t.boolean('requires_document').notNullable().defaultTo(false);
        t.string('holder_name', 255).notNullable();
        t.string('holder_email', 255).notNullable();
        t.string('holder_cpf', 14).nullable();
        t.primary(['order_id', 'index']);
        t.check('price >= 0', [], 'order_items_price_not_negative');
        t.check('index >= 0', [], 'order_items_index_not_negative');
      });
      await db.raw(
        `insert into order_items (order_id, index, ticket_type_id, type_name, lot_name, price, requires_document,
                                  holder_name, holder_email, holder_cpf)
         select id, 0, event_id, 'Ingresso', null,
                case when payment_method is null then 0 else greatest(amount - 5.00, 0) end, false,
                buyer_name, buyer_email, cpf
           from orders`,
      );
      // The back office finds orders by a holder's e-mail too; the sales per type read one event's valid tickets.
      await db.raw('create index order_items_holder_email on order_items (lower(holder_email))');
      await db.raw('create index order_items_type on order_items (ticket_type_id)');
    },
  },
  {
    name: '0014_ticket_views',
    async up(db) {
      // What the buyer's page shows of each issued ticket, as tickets announces it (ticket.issued, checked-in,
      // reset): a read model of tickets' data, one row per line of an order. Tickets issued before kept no id here.
      await db.schema.createTable('ticket_views', (t) => {
        t.uuid('order_id').notNullable().references('id').inTable('orders').onDelete('cascade');
        t.smallint('item_index').notNullable();
        t.uuid('ticket_id').nullable();
        t.text('qr_code_data').notNullable();
        t.timestamp('issued_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true }).nullable();
        t.timestamp('reset_at', { useTz: true }).nullable();
        t.timestamp('first_admitted_at', { useTz: true }).nullable();
        t.primary(['order_id', 'item_index']);
        t.unique(['ticket_id'], { indexName: 'ticket_views_ticket' });
      });
      await db.raw(
        `insert into ticket_views (order_id, item_index, ticket_id, qr_code_data, issued_at, used_at, reset_at,
                                   first_admitted_at)
         select id, 0, null, qr_code_data, coalesce(paid_at, updated_at),
                case when qr_code_used then coalesce(qr_code_used_at, updated_at) end, qr_code_reset_at,
                first_checked_in_at
           from orders where qr_code_data is not null`,
      );
    },
  },
  {
    name: '0015_orders_own_the_sale',
    async up(db) {
      // How to pay an order is kept by payments with its charge, and the ticket's QR by tickets (ticket_views here
      // shows it): neither is the order's.
      await db.schema.alterTable('orders', (t) => {
        t.dropColumns(
          'pix_qr_code',
          'pix_payload',
          'boleto_url',
          'boleto_line',
          'invoice_url',
          'qr_code_data',
          'qr_code_used',
          'qr_code_used_at',
          'qr_code_reset_at',
        );
      });
    },
  },
  {
    name: '0016_late_payments_waiting',
    async up(db) {
      // A payment that arrived after its order expired or was cancelled, noted until the catalog says (asked with no
      // transaction open) whether a spot is left for it: paid then, or its money owed back.
      await db.schema.alterTable('orders', (t) => {
        t.text('late_payment_id').nullable();
        t.timestamp('late_paid_at', { useTz: true }).nullable();
        t.decimal('late_net_amount', 10, 2).nullable();
      });
      await db.raw('create index orders_late_payments on orders (late_paid_at) where late_payment_id is not null');
    },
  },
  {
    name: '0017_companies_coupons_refusals',
    async up(db) {
      // A purchase for a company: the charge is made out to its CNPJ (kept formatted; its 14 characters beside it, so
      // the back office finds it typed with or without punctuation). Card installments, a coupon's discount (already
      // out of `amount`), and a refund the provider refused, waiting for an administrator (not retried by itself).
      await db.schema.alterTable('orders', (t) => {
        t.string('company_cnpj', 18).nullable();
        t.string('company_name', 255).nullable();
        t.string('company_email', 255).nullable();
        t.string('company_purchase_order', 60).nullable();
        t.smallint('installments').notNullable().defaultTo(1);
        t.decimal('discount_amount', 10, 2).notNullable().defaultTo(0);
        t.uuid('coupon_id').nullable();
        t.string('coupon_code', 40).nullable();
        t.timestamp('refund_refused_at', { useTz: true }).nullable();
        t.text('refund_refusal').nullable();
      });
      await db.raw(
        `alter table orders add column company_cnpj_chars text
           generated always as (regexp_replace(company_cnpj, '[^0-9A-Z]', '', 'g')) stored`,
      );
      await db.raw('create index orders_company_cnpj on orders (company_cnpj_chars) where company_cnpj is not null');
      await db.raw(
        'create index orders_refunds_refused on orders (refund_refused_at) where refund_refused_at is not null',
      );
    },
  },
];
