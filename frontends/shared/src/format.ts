/** The events happen in Brazil: dates and times read the same wherever the visitor's device is set. */
const TIME_ZONE = 'America/Sao_Paulo';

/**
 * An `Intl` formatter made on its first use: making one costs a phone several milliseconds, and a page's first
 * scripts use none.
 */
export function formatter<F extends object>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

const dates = (options: Intl.DateTimeFormatOptions) =>
  formatter(() => new Intl.DateTimeFormat('pt-BR', { ...options, timeZone: TIME_ZONE }));

const brl = formatter(() => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }));
const longDate = dates({ dateStyle: 'long' });
const shortDate = dates({ dateStyle: 'short' });
const dayMonth = dates({ day: '2-digit', month: '2-digit' });
const time = dates({ timeStyle: 'short' });
const dateTime = dates({ dateStyle: 'short', timeStyle: 'short' });

/** An amount in reais, as the API sends it ("150.00") or as a number: "R$ 150,00". */
export const formatBRL = (amount: string | number) => brl().format(Number(amount));

/** "15 de março de 2026" */
export const formatDate = (iso: string | Date) => longDate().format(new Date(iso));
/** "15/03/2026" */
export const formatShortDate = (iso: string | Date) => shortDate().format(new Date(iso));
/** "15/03" */
export const formatDayMonth = (iso: string | Date) => dayMonth().format(new Date(iso));
/** "19:00" */
export const formatTime = (iso: string | Date) => time().format(new Date(iso));
/** "15/03/2026, 19:00" */
export const formatDateTime = (iso: string | Date) => dateTime().format(new Date(iso));
