/** The events happen in Brazil: dates and times read the same wherever the visitor's device is set. */
const TIME_ZONE = 'America/Sao_Paulo';

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const longDate = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: TIME_ZONE });
const shortDate = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: TIME_ZONE });
const dayMonth = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone: TIME_ZONE });
const time = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'short', timeZone: TIME_ZONE });
const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: TIME_ZONE });

/** An amount in reais, as the API sends it ("150.00") or as a number: "R$ 150,00". */
export const formatBRL = (amount: string | number) => brl.format(Number(amount));

/** "15 de março de 2026" */
export const formatDate = (iso: string | Date) => longDate.format(new Date(iso));
/** "15/03/2026" */
export const formatShortDate = (iso: string | Date) => shortDate.format(new Date(iso));
/** "15/03" */
export const formatDayMonth = (iso: string | Date) => dayMonth.format(new Date(iso));
/** "19:00" */
export const formatTime = (iso: string | Date) => time.format(new Date(iso));
/** "15/03/2026, 19:00" */
export const formatDateTime = (iso: string | Date) => dateTime.format(new Date(iso));
