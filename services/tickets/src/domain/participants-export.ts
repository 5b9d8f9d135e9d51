import { toCsv } from '@ticketing/platform';
import { formatCpf, type ParticipantsFilter, type TicketPaymentMethod } from '@ticketing/proto';
import { findEventSnapshot } from '../data/event-snapshots-repository.ts';
import { listParticipants } from '../data/participants-repository.ts';
import type { TicketStatus } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { participantsWhere } from './participants.ts';

const HEADER = ['Nome', 'E-mail', 'CPF', 'Pedido', 'Forma de pagamento', 'Situação', 'Entrada'];

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
 * check it at the entrance), labels in pt-BR, the file named after the event.
 */
export async function exportEventParticipants(
  deps: Pick<TicketsDeps, 'db'>,
  filter: ParticipantsFilter,
): Promise<{ fileName: string; csv: string }> {
  const where = participantsWhere(filter);
  const [rows, event] = await Promise.all([
    listParticipants(deps.db, where),
    findEventSnapshot(deps.db, where.eventId),
  ]);
  const csv = toCsv(
    HEADER,
    rows.map((row) => [
      row.holderName,
      row.holderEmail,
      row.holderCpf && formatCpf(row.holderCpf),
      row.orderNumber,
      row.paymentMethod && PAYMENT_METHODS[row.paymentMethod],
      STATUSES[row.status],
      row.usedAt,
    ]),
  );
  return { fileName: fileNameOf(event?.title), csv };
}
