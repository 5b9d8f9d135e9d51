import { toCsv } from '@ticketing/platform';
import { formatCpf, type ParticipantsFilter, type TicketPaymentMethod } from '@ticketing/proto';
import { findEventSnapshot } from '../data/event-snapshots-repository.ts';
import { listParticipants } from '../data/participants-repository.ts';
import { firstAdmission, type TicketStatus } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { labelledSessions, participantsWhere } from './participants.ts';

const HEADER = ['Nome', 'E-mail', 'CPF', 'Tipo', 'Pedido', 'Forma de pagamento', 'Situação'];

const PAYMENT_METHODS: Record<TicketPaymentMethod, string> = {
  pix: 'PIX',
  credit_card: 'Cartão de crédito',
  boleto: 'Boleto',
  courtesy: 'Cortesia',
};

const STATUSES: Record<TicketStatus, string> = { valid: 'Válido', cancelled: 'Cancelado' };

/** `Participantes - Workshop de Farmácia.csv`, without the characters a file name may not hold. */
const fileNameOf = (title: string | undefined) =>
  `Participantes - ${(title ?? 'evento').replace(/[\\/:*?"<>|]+/g, '-')}.csv`;

/**
 * Every participant that matches, as the spreadsheet sent to the venue and the sponsor: the CPF in full (they
 * check it at the entrance), labels in pt-BR, the file named after the event. Its entrance: one column 'Entrada' for
 * an event of one session, one column a session ('Entrada — Dia 1 — 06/12') for an event of several.
 */
export async function exportEventParticipants(
  deps: Pick<TicketsDeps, 'db'>,
  filter: ParticipantsFilter,
): Promise<{ fileName: string; csv: string }> {
  const where = participantsWhere(filter);
  const [rows, event, sessions] = await Promise.all([
    listParticipants(deps.db, where),
    findEventSnapshot(deps.db, where.eventId),
    labelledSessions(deps, where.eventId),
  ]);
  const several = sessions.length > 1;
  const entrances = several ? sessions.map(({ label }) => `Entrada — ${label}`) : ['Entrada'];
  const csv = toCsv(
    [...HEADER, ...entrances],
    rows.map((row) => [
      row.holderName,
      row.holderEmail,
      row.holderCpf && formatCpf(row.holderCpf),
      row.ticketType?.name ?? null,
      row.orderNumber,
      row.paymentMethod && PAYMENT_METHODS[row.paymentMethod],
      STATUSES[row.status],
      ...(several ? sessions.map(({ id }) => row.admissions[id]?.at ?? null) : [firstAdmission(row.admissions)]),
    ]),
  );
  return { fileName: fileNameOf(event?.title), csv };
}
