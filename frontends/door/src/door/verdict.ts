import {
  decideReading,
  scanMessages,
  type DoorTicket,
  type Reading,
  type ScanCode,
  type ScanView,
  type TicketAtDoor,
} from '@ticketing/proto';

/** What the door shows after a reading, decided here or by the server. */
export interface Verdict {
  admitted: boolean;
  code: ScanCode;
  /** The refusal's text ('Ingresso cancelado'); for a holder let in, 'Ingresso válido'. */
  message: string;
  holder: string | null;
  eventTitle: string | null;
  ticketId: string | null;
  orderId: string | null;
  /** The ticket's type, when the reading named a ticket known and it has one. */
  ticketType: DoorTicket['ticketType'];
}

const SECONDS = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The door's texts: the server's own for a verdict, so a verdict reads alike offline. */
export const doorTexts = {
  ...scanMessages,
  unreachable: 'Sem conexão: escolha o evento desta entrada para ler ingressos sem internet',
  /** A type whose holders show a document at the door: said over a holder let in. */
  checkDocument: (typeName: string) => `Conferir documento — ${typeName}`,
  /** `session` names the session for an event of several ('Dia 2 — 07/12'). */
  conflict: (holder: string, times: string[], session?: string) =>
    `Conflito${session ? ` em ${session}` : ''}: ${holder} entrou em dois dispositivos (às ${times.map(clockTime).join(' e ')})`,
};

/** hh:mm:ss in São Paulo, for the door's lists. */
export const clockTime = (at: string) => SECONDS.format(new Date(at));

/** The server's answer to a reading, as the door shows it. */
export const serverVerdict = (answer: ScanView): Verdict => ({
  admitted: answer.success,
  code: answer.code,
  message: answer.message || (answer.success ? doorTexts.valid : 'Erro'),
  holder: answer.success ? answer.userName || 'Verificado' : answer.userName,
  eventTitle: answer.eventTitle,
  ticketId: answer.ticketId ?? null,
  orderId: answer.orderId ?? null,
  ticketType: answer.ticketType
    ? { name: answer.ticketType.name, requiresDocument: answer.ticketType.requiresDocument }
    : null,
});

/**
 * The device's verdict on a reading, by the door's one rule, from the ticket kept on the device (`ticket`, as
 * `decideReading` takes it, with what the door shows of it); `doorEventTitle` names the door's event.
 */
export function deviceVerdict(
  reading: Reading & { ticket: (TicketAtDoor & DoorTicket) | undefined },
  doorEventTitle: string | null,
): Verdict {
  const { code, message } = decideReading(reading);
  const { ticket } = reading;
  return {
    admitted: code === 'valid',
    code,
    message,
    holder: ticket?.holderName ?? null,
    eventTitle: code === 'wrong_event' ? (reading.claimedEventTitle ?? null) : doorEventTitle,
    ticketId: ticket?.id ?? null,
    orderId: ticket?.orderId ?? null,
    // A list kept from before types existed has none.
    ticketType: ticket?.ticketType ?? null,
  };
}

/** 'Conferir documento — <type>' over a holder let in with a ticket whose type asks for one; null otherwise. */
export const documentNotice = ({ admitted, ticketType }: Verdict): string | null =>
  admitted && ticketType?.requiresDocument ? doorTexts.checkDocument(ticketType.name) : null;
