import { outboxInsert, type Knex } from '@ticketing/platform';
import type { Envelope } from '@ticketing/proto';
import type { EmailAttachment } from '../domain/attachments.ts';

export type EmailStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface NewEmailRow {
  dedupe_key: string;
  template: string;
  user_id: string | null;
  /** The order the e-mail is about, if any. */
  order_id: string | null;
  correlation_id: string | null;
  /** The W3C trace context the e-mail was queued in, if any. */
  traceparent: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
}

/** A row the worker has claimed: what it needs to send it and to record the outcome. */
export type ClaimedEmail = Pick<
  NewEmailRow,
  'template' | 'order_id' | 'correlation_id' | 'traceparent' | 'to' | 'subject' | 'html' | 'text' | 'attachments'
> & {
  id: string;
  /** Counting this one. */
  attempts: number;
  /** The row was already being sent by a worker that never reported back (it crashed or hung). */
  interrupted: boolean;
};

const WAITING = ['pending', 'sending'];
const CANCELLED = 'cancelled:';

/** Stores an e-mail unless one with the same dedupe key exists; returns the new row's id, or null. */
export async function insertEmail(trx: Knex.Transaction, row: NewEmailRow): Promise<string | null> {
  const inserted: { id: string }[] = await trx('email_queue')
    .insert({ ...row, attachments: JSON.stringify(row.attachments) })
    .onConflict('dedupe_key')
    .ignore()
    .returning('id');
  return inserted[0]?.id ?? null;
}

/**
 * Claims up to `limit` due e-mails for this worker: pending ones whose time has come, and sending ones whose
 * claim lapsed. SKIP LOCKED lets replicas claim side by side without waiting on or taking each other's rows.
 * A claim counts as an attempt and holds the row for `leaseMs`; after that another worker may take it over.
 */
export async function claimDue(
  db: Knex,
  { limit, leaseMs, maxAttempts }: { limit: number; leaseMs: number; maxAttempts: number },
): Promise<ClaimedEmail[]> {
  const result = await db.raw(
    `with due as (
       select id, status as was from email_queue
       where status in ('pending', 'sending') and next_attempt_at <= now() and attempts < ?
       order by next_attempt_at, created_at
       limit ?
       for update skip locked)
     update email_queue q
     set status = 'sending', attempts = q.attempts + 1, next_attempt_at = now() + ? * interval '1 millisecond'
     from due where q.id = due.id
     returning q.id, q.template, q.order_id, q.correlation_id, q.traceparent, q."to", q.subject, q.html, q.text, q.attachments, q.attempts,
       due.was = 'sending' as interrupted`,
    [maxAttempts, limit, leaseMs],
  );
  return result.rows;
}

/**
 * Gives up on e-mails out of attempts that are still waiting: a claim that lapsed on the last attempt (the
 * sender died mid-send) or rows left over from a larger MAIL_MAX_ATTEMPTS.
 */
export async function failExhausted(
  db: Knex,
  maxAttempts: number,
): Promise<{ id: string; template: string; attempts: number }[]> {
  const result = await db.raw(
    `update email_queue
     set status = 'failed', processed_at = now(),
       last_error = coalesce(last_error || '; ', '') || case when status = 'sending'
         then 'delivery interrupted on the last attempt' else 'no attempts left' end
     where status in ('pending', 'sending') and next_attempt_at <= now() and attempts >= ?
     returning id, template, attempts`,
    [maxAttempts],
  );
  return result.rows;
}

/**
 * Records a delivery at `sentAt`, with the announcement of an e-mail about an order written in the same statement
 * (one round trip, atomic). Accepted by the server means sent, even if the claim had lapsed meanwhile. False, with
 * nothing written, when it was sent already (a second copy).
 */
export async function markSent(db: Knex, id: string, sentAt: Date, announcement: Envelope | null): Promise<boolean> {
  const sent = `update email_queue set status = 'sent', processed_at = ? where id = ? and status <> 'sent' returning id`;
  const { rows } = (await (announcement
    ? db.raw(
        `with sent as (${sent}), announced as (
           ${outboxInsert('(select ?::jsonb as envelope from sent) as announcement')}
         )
         select id from sent`,
        [sentAt, id, JSON.stringify(announcement)],
      )
    : db.raw(sent, [sentAt, id]))) as { rows: { id: string }[] };
  return rows.length === 1;
}

/** Records a failed attempt on a row this worker still holds (same attempt number), due again after `delayMs`. */
export async function markRetry(db: Knex, id: string, attempt: number, delayMs: number, error: string): Promise<void> {
  await db('email_queue')
    .where({ id, status: 'sending', attempts: attempt })
    .update({
      status: 'pending',
      next_attempt_at: db.raw("now() + ? * interval '1 millisecond'", [delayMs]),
      last_error: error,
    });
}

/** Gives up on a row this worker still holds; the row stays, failed, for the record. */
export async function markFailed(db: Knex, id: string, attempt: number, error: string): Promise<void> {
  await db('email_queue')
    .where({ id, status: 'sending', attempts: attempt })
    .update({ status: 'failed', processed_at: db.fn.now(), last_error: error });
}

/** Milliseconds until the next waiting e-mail is due (0 if one is due now), or null when nothing waits. */
export async function msUntilNextDue(db: Knex, maxAttempts: number): Promise<number | null> {
  const [row] = await db('email_queue')
    .whereIn('status', WAITING)
    .where('attempts', '<', maxAttempts)
    .select(db.raw('extract(epoch from (min(next_attempt_at) - clock_timestamp())) * 1000 as ms'));
  // min() of nothing is null: nothing waits (and greatest() would have turned that into "due now").
  if (row?.ms === null || row?.ms === undefined) return null;
  return Math.max(0, Math.ceil(Number(row.ms)));
}

export async function countWaiting(db: Knex): Promise<number> {
  const [row] = await db('email_queue').whereIn('status', WAITING).count({ n: '*' });
  return Number(row?.n ?? 0);
}

/** E-mails only ever sent to the account's own address (its owner asked for them), never to someone else. */
const ACCOUNT_TEMPLATES = ['verification-code', 'password-reset'];

/** The addresses an account was known by here, lower-cased: those its own e-mails went to. */
export async function accountAddresses(trx: Knex.Transaction, userId: string): Promise<string[]> {
  const rows: { address: string }[] = await trx('email_queue')
    .distinct(trx.raw('lower("to") as address'))
    .where({ user_id: userId })
    .whereIn('template', ACCOUNT_TEMPLATES)
    .whereNot('to', '');
  return rows.map((row) => row.address);
}

/**
 * Removes a user's personal content from their e-mails (address, subject, bodies, attachments, the address
 * inside SMTP errors), keeping status, attempts and timestamps. E-mails not yet sent are cancelled (failed). Also
 * those that belong to no account but went to one of `addresses` (an invitation to the person's address).
 */
export async function redactUserEmails(
  trx: Knex.Transaction,
  userId: string,
  addresses: string[] = [],
): Promise<{ redacted: number; cancelled: number }> {
  const rows: { last_error: string | null }[] = await trx('email_queue')
    .where((query) => {
      query.where({ user_id: userId });
      if (addresses.length > 0) query.orWhereRaw('user_id is null and lower("to") = any(?::text[])', [addresses]);
    })
    .whereNull('redacted_at')
    .update({
      to: '',
      subject: '',
      html: '',
      text: '',
      attachments: '[]',
      redacted_at: trx.fn.now(),
      status: trx.raw("case when status in ('pending', 'sending') then 'failed' else status end"),
      processed_at: trx.raw("case when status in ('pending', 'sending') then now() else processed_at end"),
      last_error: trx.raw(
        `case when status in ('pending', 'sending') then ?
         when "to" <> '' then replace(last_error, "to", '[removed]') else last_error end`,
        [`${CANCELLED} the account was deleted before delivery`],
      ),
    })
    .returning(['last_error']);
  const cancelled = rows.filter((row) => row.last_error?.startsWith(CANCELLED)).length;
  return { redacted: rows.length, cancelled };
}
