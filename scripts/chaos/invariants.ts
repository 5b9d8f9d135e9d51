import { setTimeout as sleep } from 'node:timers/promises';
import type { CaughtMessage } from '../mail-catcher.ts';
import { SCHEMAS, type Database } from './database.ts';
import type { LoadRecord } from './load.ts';
import type { World } from './setup.ts';

export interface MassSend {
  jobId: string;
  guests: string[];
  subject: string;
}

/** What the checks read: the stack's database and mail catcher, and what the load was told. */
export interface Evidence {
  db: Database;
  messages: () => CaughtMessage[];
  world: World;
  record: LoadRecord;
  massSend?: MassSend;
  bus: string;
}

/** Distinct Message-IDs per key: a copy resent under the same Message-ID is the same e-mail. */
function mailsBy(messages: CaughtMessage[], keyOf: (message: CaughtMessage) => string | undefined) {
  const byKey = new Map<string, Set<string>>();
  for (const message of messages) {
    const key = keyOf(message);
    if (key === undefined) continue;
    byKey.set(key, (byKey.get(key) ?? new Set()).add(message.messageId ?? message.id));
  }
  return byKey;
}

/** "3 of 40 …, e.g. a, b": a broken invariant in one line. */
const some = (bad: string[], total: number, what: string) =>
  bad.length === 0 ? [] : [`${bad.length} of ${total} ${what}, e.g. ${bad.slice(0, 3).join('; ')}`];

interface OrderRow {
  id: string;
  status: string;
  order_number: string;
  tickets: number;
}

/** Every order answered 201 (and every redemption answered 201) ends paid, with one ticket and one ticket e-mail. */
async function sales({ db, messages, world, record }: Evidence): Promise<string[]> {
  const purchases = [...record.purchases.values()];
  const orders = await db.rows<OrderRow>(
    `select o.id, o.status, o.order_number, (select count(*) from tickets.tickets t where t.order_id = o.id)::int as tickets
     from orders.orders o where o.id = any($1::uuid[])`,
    [purchases.map((purchase) => purchase.orderId)],
  );
  const redeemed = await db.rows<OrderRow & { attendee_id: string }>(
    `select r.attendee_id, o.id, o.status, o.order_number,
       (select count(*) from tickets.tickets t where t.order_id = o.id)::int as tickets
     from courtesy.courtesy_redemptions r join courtesy.courtesy_links l on l.id = r.link_id
     left join orders.orders o on o.courtesy_attendee_id = r.attendee_id
     where l.code = any($1::text[])`,
    [world.linkCodes],
  );
  const ticketMails = mailsBy(messages(), (message) =>
    message.subject.startsWith('Seu ingresso:')
      ? message.attachments.map((file) => /^ingresso-(.+)\.png$/.exec(file.filename)?.[1]).find(Boolean)
      : undefined,
  );
  const found = new Map(orders.map((order) => [order.id, order]));
  const outcome = (order: OrderRow | undefined) => {
    if (!order?.id) return 'missing';
    if (order.status !== 'paid') return order.status;
    if (order.tickets !== 1) return `${order.tickets} tickets`;
    const mails = ticketMails.get(order.order_number)?.size ?? 0;
    return mails === 1 ? undefined : `${mails} ticket e-mails`;
  };
  const badPurchases = purchases.flatMap((purchase) => {
    const wrong = outcome(found.get(purchase.orderId));
    return wrong ? [`${purchase.orderId} ${wrong}`] : [];
  });
  const badRedemptions = redeemed.flatMap((row) => {
    const wrong = outcome(row);
    return wrong ? [`attendee ${row.attendee_id}: ${wrong}`] : [];
  });
  return [
    ...some(
      badPurchases,
      purchases.length,
      'orders answered 201 did not end paid with one ticket and one ticket e-mail',
    ),
    ...some(
      badRedemptions,
      redeemed.length,
      'courtesy redemptions did not end paid with one ticket and one ticket e-mail',
    ),
    ...(redeemed.length === record.redemptions.length
      ? []
      : [`${record.redemptions.length} redemptions answered 201, ${redeemed.length} recorded by courtesy`]),
  ];
}

/**
 * No spot oversold or leaked: each event's taken spots are what its holds keep, within its capacity, and the orders'
 * live holds are exactly the pending and paid orders. No order is left pending that no buyer was told of.
 */
async function spots({ db, world, record }: Evidence): Promise<string[]> {
  const events = [world.rush, world.main];
  const broken: string[] = [];
  const counts = await db.rows<{ id: string; max_attendees: number; current_attendees: number; held: number }>(
    `select e.id, e.max_attendees, e.current_attendees,
       coalesce(sum(case when h.released_at is null then h.quantity else h.kept end), 0)::int as held
     from catalog.events e left join catalog.holds h on h.event_id = e.id
     where e.id = any($1::uuid[]) group by e.id`,
    [events],
  );
  for (const event of counts) {
    if (event.current_attendees !== event.held)
      broken.push(`event ${event.id}: ${event.current_attendees} spots taken, its holds keep ${event.held}`);
    if (event.current_attendees > event.max_attendees)
      broken.push(`event ${event.id}: ${event.current_attendees} spots taken of ${event.max_attendees}`);
  }
  const held = await db.rows<{ order_id: string }>(
    `select substr(id, 7) as order_id from catalog.holds
     where id like 'order:%' and released_at is null and event_id = any($1::uuid[])`,
    [events],
  );
  const live = await db.rows<{ id: string; status: string }>(
    `select id, status from orders.orders
     where courtesy_attendee_id is null and status in ('pending', 'paid') and event_id = any($1::uuid[])`,
    [events],
  );
  const heldIds = new Set(held.map((row) => row.order_id));
  const liveIds = new Set(live.map((row) => row.id));
  broken.push(
    ...some(
      held.filter((row) => !liveIds.has(row.order_id)).map((row) => row.order_id),
      held.length,
      'spots held for orders neither pending nor paid (leaked)',
    ),
    ...some(
      live.filter((row) => !heldIds.has(row.id)).map((row) => row.id),
      live.length,
      'pending or paid orders hold no spot (oversold)',
    ),
    ...some(
      live.filter((row) => !record.purchases.has(row.id)).map((row) => `${row.id} ${row.status}`),
      live.length,
      'orders taking a spot were never answered to a buyer',
    ),
  );
  return broken;
}

/** Every admission the door answered is recorded once (its event has one session), and reached the buyer's order. */
async function admissions({ db, record }: Evidence): Promise<string[]> {
  const admitted = [...record.admissions.values()];
  const rows = await db.rows<{ id: string; admitted: boolean; valid: number; shown_used: boolean }>(
    `select t.id, t.admissions <> '{}'::jsonb as admitted, coalesce(v.used_at is not null, false) as shown_used,
       (select count(*) from tickets.scans s where s.ticket_id = t.id and s.code = 'valid')::int as valid
     from tickets.tickets t
       left join orders.ticket_views v on v.order_id = t.order_id and v.item_index = t.item_index
     where t.id = any($1::uuid[])`,
    [admitted.map((admission) => admission.ticketId)],
  );
  const twice = await db.rows<{ ticket_id: string }>(
    `select ticket_id from tickets.scans where code = 'valid' group by ticket_id, session_id having count(*) > 1`,
  );
  const [{ n: recorded }] = await db.rows<{ n: number }>(
    `select count(distinct ticket_id)::int as n from tickets.scans where code = 'valid'`,
  );
  const bad = rows.flatMap((row) => {
    if (!row.admitted || row.valid !== 1) return [`${row.id}: ${row.valid} admissions recorded`];
    return row.shown_used ? [] : [`${row.id}: its order does not show it used`];
  });
  return [
    ...some(bad, admitted.length, 'admissions not recorded once'),
    ...(rows.length === admitted.length ? [] : [`${admitted.length - rows.length} admitted tickets not found`]),
    ...some(
      twice.map((row) => row.ticket_id),
      recorded,
      'tickets admitted more than once',
    ),
    ...(recorded === admitted.length ? [] : [`${recorded} tickets admitted, the door answered ${admitted.length}`]),
  ];
}

/** Nothing given up or stuck: no dead letter, every outbox published, every e-mail sent, the PostgreSQL bus read. */
async function pipelines({ db, bus }: Evidence): Promise<string[]> {
  const broken: string[] = [];
  for (const schema of SCHEMAS) {
    const letters = await db.rows<{ topic: string; error: string }>(`select topic, error from ${schema}.dead_letters`);
    if (letters.length > 0)
      broken.push(`${letters.length} dead letters in ${schema}, e.g. ${letters[0]!.topic}: ${letters[0]!.error}`);
  }
  const unpublished = await db.unpublished();
  if (unpublished > 0) broken.push(`${unpublished} events not yet published from the outboxes`);
  const queue = await db.rows<{ status: string; n: number }>(
    `select status, count(*)::int as n from mail.email_queue where status <> 'sent' group by status`,
  );
  if (queue.length > 0) broken.push(`e-mails not sent: ${queue.map((row) => `${row.n} ${row.status}`).join(', ')}`);
  if (bus === 'postgres') {
    const behind = await db.rows<{ group_id: string; topic: string }>(
      `select o.group_id, o.topic from bus.offsets o
       join bus.heads h on h.topic = o.topic and h.partition = o.partition where h.next_offset > o.next_offset`,
    );
    if (behind.length > 0)
      broken.push(`${behind.length} consumer partitions behind, e.g. ${behind[0]!.group_id} on ${behind[0]!.topic}`);
  }
  return broken;
}

/** The mass send ends done: one link and exactly one invitation e-mail per guest. */
async function massSent({ db, messages, massSend }: Evidence): Promise<string[]> {
  if (!massSend) return [];
  const [job] = await db.rows<{ status: string; total: number; sent: number; failed: number }>(
    'select status, total, sent, failed from courtesy.mass_send_jobs where id = $1',
    [massSend.jobId],
  );
  const [{ n: links }] = await db.rows<{ n: number }>(
    'select count(*)::int as n from courtesy.courtesy_links where job_id = $1',
    [massSend.jobId],
  );
  const invitations = mailsBy(messages(), (message) =>
    message.subject === massSend.subject ? message.to[0] : undefined,
  );
  const guests = massSend.guests.length;
  const wrong = massSend.guests.flatMap((guest) => {
    const count = invitations.get(guest)?.size ?? 0;
    return count === 1 ? [] : [`${guest}: ${count}`];
  });
  return [
    ...(job?.status === 'done' && job.sent === guests && job.failed === 0
      ? []
      : [`mass send job ${job?.status}: ${job?.sent} sent, ${job?.failed} failed of ${guests}`]),
    ...(links === guests ? [] : [`mass send made ${links} links for ${guests} guests`]),
    ...some(wrong, guests, 'guests did not get exactly one invitation'),
  ];
}

export async function brokenInvariants(evidence: Evidence): Promise<string[]> {
  const checks = [sales, spots, admissions, pipelines, massSent];
  return (await Promise.all(checks.map((check) => check(evidence)))).flat();
}

/** Checks until every invariant holds (the product catching up) or `ms` pass; answers what is still broken. */
export async function settle(evidence: Evidence, ms: number): Promise<{ broken: string[]; settledMs: number }> {
  const started = Date.now();
  for (;;) {
    const broken = await brokenInvariants(evidence).catch((error: Error) => [`checks failed: ${error.message}`]);
    if (broken.length === 0 || Date.now() - started > ms) return { broken, settledMs: Date.now() - started };
    await sleep(2000);
  }
}
