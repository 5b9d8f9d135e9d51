import { randomUUID } from 'node:crypto';
import { createDb, createLogger, replaceDoorAssignments, type Knex } from '@ticketing/platform';
import { waitFor } from '@ticketing/testkit';
import { createTicketKeys, ensureTicketKey, keepEventCopy, signTicket, toTicketRow } from '@ticketing/tickets';

/**
 * Issues `count` valid tickets for a new event straight into the verifier's schema, signed with its current key,
 * and assigns the door staffer `doorUserId` to that event as identity's announcement would: each benchmark request
 * admits a different ticket, as at a real door. Returns the event and the tickets' QR texts.
 */
export async function issueBenchTickets(
  databaseUrl: string,
  schema: string,
  count: number,
  doorUserId: string,
): Promise<{ eventId: string; texts: string[] }> {
  const db: Knex = createDb(databaseUrl, schema, 2);
  try {
    const logger = createLogger('bench', 'silent');
    // The tickets worker makes the signing key (the verifier only reads public keys); none runs here.
    await ensureTicketKey({ db, logger });
    const key = await createTicketKeys(db, logger, 60_000).signing();
    const eventId = randomUUID();
    await keepEventCopy(db, eventId, {
      title: 'Congresso de Benchmark',
      date: new Date(Date.now() + 86_400_000),
      location: 'São Paulo — SP',
    });
    const rows = Array.from({ length: count }, (_, i) => {
      const id = randomUUID();
      return toTicketRow({
        id,
        orderId: randomUUID(),
        orderNumber: `EF-${String(i).padStart(6, '0')}`,
        eventId,
        userId: randomUUID(),
        holderName: `Participante ${i}`,
        holderEmail: `participante.${i}@example.com.br`,
        qrText: signTicket({ ticketId: id, eventId, version: 1 }, key),
      });
    });
    for (let i = 0; i < rows.length; i += 1000) await db('tickets').insert(rows.slice(i, i + 1000));
    const assigned = await db('door_assignments').where({ user_id: doorUserId }).pluck('event_id');
    await db.transaction((trx) => replaceDoorAssignments(trx, doorUserId, [...assigned, eventId]));
    return { eventId, texts: rows.map((row) => row.qr_text) };
  } finally {
    await db.destroy();
  }
}

/** How many of the event's tickets have been let in. */
export async function admittedCount(databaseUrl: string, schema: string, eventId: string): Promise<number> {
  const db = createDb(databaseUrl, schema, 1);
  try {
    const [row] = await db('tickets')
      .where({ event_id: eventId })
      .whereRaw(`admissions <> '{}'::jsonb`)
      .count({ n: '*' });
    return Number(row?.n ?? 0);
  } finally {
    await db.destroy();
  }
}

/** Resolves once every event the verifier recorded has been relayed to the bus. */
export async function outboxRelayed(databaseUrl: string, schema: string): Promise<void> {
  const db = createDb(databaseUrl, schema, 1);
  try {
    await waitFor(
      async () => {
        const [row] = await db('outbox').whereNull('published_at').count({ n: '*' });
        return Number(row?.n ?? 0) === 0;
      },
      { timeoutMs: 120_000 },
    );
  } finally {
    await db.destroy();
  }
}
