import { alterTableMigration, createForgottenUsersTable, type Migration } from '@ticketing/platform';

/** The e-mail queue (spec §3 plus what delivery and privacy need) and the users whose data must not come back. */
export const mailMigrations: Migration[] = [
  {
    name: '0001_email_queue',
    async up(db) {
      await db.schema.createTable('email_queue', (t) => {
        t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
        // Event id + template: a redelivered event can never queue a second e-mail.
        t.text('dedupe_key').notNullable().unique();
        t.text('template').notNullable();
        t.uuid('user_id').nullable();
        t.text('correlation_id').nullable();
        // The message as it will be sent, one text column per part.
        for (const part of ['to', 'subject', 'html', 'text']) t.text(part).notNullable();
        // [{ filename, contentType, content (base64) | href (URL), cid? }]
        t.jsonb('attachments').notNullable().defaultTo(db.raw("'[]'::jsonb"));
        t.text('status').notNullable().defaultTo('pending');
        t.integer('attempts').notNullable().defaultTo(0);
        // Pending: when the next attempt is due. Sending: when the claim lapses (the sender is presumed dead).
        t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.text('last_error').nullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('processed_at', { useTz: true }).nullable();
        t.timestamp('redacted_at', { useTz: true }).nullable();
        t.check("status in ('pending', 'sending', 'sent', 'failed')", [], 'email_queue_status_known');
        t.check('attempts >= 0', [], 'email_queue_attempts_not_negative');
        t.index(['user_id'], 'email_queue_user_id');
      });
      // The worker reads only what is waiting, by due time.
      await db.raw(
        "create index email_queue_due on email_queue (next_attempt_at) where status in ('pending', 'sending')",
      );
      // The deleted accounts whose e-mails must not come back.
      await createForgottenUsersTable(db);
    },
  },
  // The order an e-mail is about, if any: its delivery is announced (mail.sent) for the order's timeline.
  alterTableMigration('0002_email_order', 'email_queue', (t) => {
    t.uuid('order_id').nullable();
  }),
  // The trace of the event that asked for the e-mail: its delivery, later, continues it.
  alterTableMigration('0003_email_trace', 'email_queue', (t) => {
    t.text('traceparent').nullable();
  }),
];
