import { EVENT_TIME_ZONE } from './api/catalog.ts';
/** Dates at the door are read in the event's country. */
const DAY = new Intl.DateTimeFormat('pt-BR', {
  timeZone: EVENT_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: EVENT_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * What the door says of a reading (pt-BR): the tickets service answers with these, and a scanner deciding offline
 * says the same.
 */
export const scanMessages = {
  valid: 'Ingresso válido',
  alreadyUsed: (at: Date | string) =>
    `Ingresso já utilizado em ${DAY.format(new Date(at))} às ${TIME.format(new Date(at))}`,
  cancelled: 'Ingresso cancelado',
  wrongEvent: (title: string | null) => (title ? `Ingresso de outro evento: ${title}` : 'Ingresso de outro evento'),
  notFound: 'Ingresso não encontrado',
  invalid: 'QR Code inválido',
  outdated: 'QR Code inválido: este ingresso foi reemitido, apresente o QR Code mais recente',
} as const;
