import { randomUUID } from 'node:crypto';
import { createDb, createLogger, type Knex } from '@ticketing/platform';
import { createTicketKeys, signTicket, toTicketRow } from '@ticketing/tickets';

/**
 * Issues `count` valid tickets straight into the verifier's schema, signed with its current key, and returns
 * their QR texts: each benchmark request admits a different ticket, as at a real door.
 */
export async function issueBenchTickets(databaseUrl: string, schema: string, count: number): Promise<string[]> {
  const db: Knex = createDb(databaseUrl, schema, 2);
  try {
    const key = await createTicketKeys(db, createLogger('bench', 'silent'), 60_000).signing();
    const eventId = randomUUID();
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
        eventTitle: 'Congresso de Benchmark',
        eventDate: new Date(Date.now() + 86_400_000),
        eventLocation: 'São Paulo — SP',
        qrText: signTicket({ ticketId: id, eventId, version: 1 }, key),
      });
    });
    for (let i = 0; i < rows.length; i += 1000) await db('tickets').insert(rows.slice(i, i + 1000));
    return rows.map((row) => row.qr_text);
  } finally {
    await db.destroy();
  }
}

export async function admittedCount(databaseUrl: string, schema: string): Promise<number> {
  const db = createDb(databaseUrl, schema, 1);
  try {
    const [row] = await db('tickets').whereNotNull('used_at').count({ n: '*' });
    return Number(row?.n ?? 0);
  } finally {
    await db.destroy();
  }
}
