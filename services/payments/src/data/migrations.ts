import { alterTableMigration, createTableMigration, type Migration } from '@ticketing/platform';

/** The payments service's tables: one provider charge per order, and every webhook notification received. */
export const paymentsMigrations: Migration[] = [
  createTableMigration('0001_charges', 'charges', (t, db) => {
    t.uuid('order_id').primary();
    t.text('payment_id').notNullable().unique();
    t.text('customer_id').notNullable();
    t.text('method').notNullable();
    t.decimal('value', 12, 2).notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('provider_status').notNullable();
    // How the buyer pays, as the provider answered for the method.
    for (const column of ['pix_qr_code', 'pix_payload', 'boleto_url', 'boleto_line', 'invoice_url']) {
      t.text(column).nullable();
    }
    t.date('due_date').notNullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.timestamp('refund_requested_at', { useTz: true }).nullable();
    t.timestamp('refunded_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check("method in ('pix', 'credit_card', 'boleto')", [], 'charges_method_known');
    t.check("status in ('pending', 'overdue', 'failed', 'cancelled', 'paid', 'refunded')", [], 'charges_status_known');
    t.check('value >= 0', [], 'charges_value_not_negative');
  }),
  createTableMigration('0002_webhook_events', 'webhook_events', (t, db) => {
    t.text('id').primary();
    t.text('event').notNullable();
    t.text('payment_id').nullable();
    t.jsonb('payload').notNullable();
    t.text('outcome').notNullable().defaultTo('received');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['payment_id'], 'webhook_events_payment_id');
  }),
  {
    // Provider calls happen outside transactions: a charge row exists (reserved) before its payment does, and a
    // deletion is asked for in one transaction and made later. A payment that does not match its charge is held
    // for review; money that went back by chargeback has its own state.
    name: '0003_provider_work_and_review',
    async up(db) {
      await db.raw(`
        alter table charges
          alter column payment_id drop not null,
          alter column customer_id drop not null,
          alter column provider_status drop not null,
          add column creation_id uuid,
          add column creation_expires_at timestamptz,
          add column delete_requested_at timestamptz,
          add column delete_lease_until timestamptz,
          add column review_reason text,
          drop constraint charges_status_known,
          add constraint charges_status_known
            check (status in ('pending', 'overdue', 'failed', 'cancelled', 'paid', 'refunded', 'charged_back')),
          add constraint charges_created_or_reserved check (
            (payment_id is not null and customer_id is not null and provider_status is not null)
            or (creation_id is not null and creation_expires_at is not null)),
          add constraint charges_review_reason_known
            check (review_reason in ('external_reference_mismatch', 'value_mismatch'))`);
      await db.raw(
        `create index charges_deletions_due on charges (delete_requested_at)
           where delete_requested_at is not null and status in ('pending', 'overdue')`,
      );
    },
  },
  {
    // A refund is asked of the provider by one request at a time: the others wait for its answer or try later.
    name: '0004_refund_lease',
    async up(db) {
      await db.raw('alter table charges add column refund_lease_until timestamptz');
    },
  },
  {
    // Whom the charge is made out to (the nota fiscal's e-mail goes there), card installments, and a boleto's refund
    // waiting for the payer's bank account.
    name: '0005_recipients_installments_bank_details',
    async up(db) {
      await db.raw(`
        alter table charges
          add column customer_name text,
          add column customer_email text,
          add column order_number text,
          add column installment_id text unique,
          add column installment_count integer not null default 1,
          add column refund_bank_details_url text,
          add constraint charges_installment_count_positive check (installment_count >= 1)`);
    },
  },
  createTableMigration('0006_fiscal_settings', 'fiscal_settings', (t, db) => {
    // One row: what every nota fiscal says.
    t.smallint('id').primary().defaultTo(1);
    t.boolean('enabled').notNullable();
    t.text('service_description').notNullable();
    t.text('municipal_service_code').nullable();
    t.text('municipal_service_id').nullable();
    t.text('municipal_service_name').nullable();
    t.decimal('iss_rate', 6, 4).notNullable();
    t.decimal('deductions', 12, 2).notNullable();
    t.boolean('retain_iss').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check('id = 1', [], 'fiscal_settings_single_row');
  }),
  createTableMigration('0007_invoices', 'invoices', (t, db) => {
    // One nota fiscal per paid order: written with the payment, scheduled at the provider by a job.
    t.uuid('order_id').primary().references('order_id').inTable('charges');
    t.text('invoice_id').nullable().unique();
    t.text('status').notNullable().defaultTo('scheduled');
    t.decimal('value', 12, 2).notNullable();
    t.date('effective_date').notNullable();
    t.text('pdf_url').nullable();
    t.text('reason').nullable();
    t.timestamp('cancel_requested_at', { useTz: true }).nullable();
    t.timestamp('lease_until', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check("status in ('scheduled', 'authorized', 'error', 'cancelling', 'cancelled')", [], 'invoices_status_known');
    t.index(['status', 'updated_at'], 'invoices_status_updated');
  }),
  // The trace of the sale that created the charge: the provider's later notices about it continue that trace.
  alterTableMigration('0008_charge_trace', 'charges', (t) => {
    t.text('traceparent').nullable();
  }),
];
