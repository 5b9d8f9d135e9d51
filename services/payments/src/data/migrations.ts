import type { Migration } from '@ticketing/platform';

/** The payments service's tables: one provider charge per order, and every webhook notification received. */
export const paymentsMigrations: Migration[] = [
  {
    name: '0001_charges',
    async up(db) {
      await db.schema.createTable('charges', (t) => {
        t.uuid('order_id').primary();
        t.text('payment_id').notNullable().unique();
        t.text('customer_id').notNullable();
        t.text('method').notNullable();
        t.decimal('value', 12, 2).notNullable();
        t.text('status').notNullable().defaultTo('pending');
        t.text('provider_status').notNullable();
        t.text('pix_qr_code').nullable();
        t.text('pix_payload').nullable();
        t.text('boleto_url').nullable();
        t.text('boleto_line').nullable();
        t.text('invoice_url').nullable();
        t.date('due_date').notNullable();
        t.timestamp('paid_at', { useTz: true }).nullable();
        t.timestamp('refund_requested_at', { useTz: true }).nullable();
        t.timestamp('refunded_at', { useTz: true }).nullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.check("method in ('pix', 'credit_card', 'boleto')", [], 'charges_method_known');
        t.check(
          "status in ('pending', 'overdue', 'failed', 'cancelled', 'paid', 'refunded')",
          [],
          'charges_status_known',
        );
        t.check('value >= 0', [], 'charges_value_not_negative');
      });
    },
  },
  {
    name: '0002_webhook_events',
    async up(db) {
      await db.schema.createTable('webhook_events', (t) => {
        t.text('id').primary();
        t.text('event').notNullable();
        t.text('payment_id').nullable();
        t.jsonb('payload').notNullable();
        t.text('outcome').notNullable().defaultTo('received');
        t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['payment_id'], 'webhook_events_payment_id');
      });
    },
  },
];
