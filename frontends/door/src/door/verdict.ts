import { scanMessages, type ScanCode } from '@ticketing/proto';

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
  /** `session` names the session for an event of several ('Dia 2 — 07/12'). */
  conflict: (holder: string, times: string[], session?: string) =>
    `Conflito${session ? ` em ${session}` : ''}: ${holder} entrou em dois dispositivos (às ${times.map(clockTime).join(' e ')})`,
};

/** hh:mm:ss in São Paulo, for the door's lists. */
export const clockTime = (at: string) => SECONDS.format(new Date(at));
