/** "Olá, Maria!" from "Maria Souza"; a plain "Olá!" when there is no name. */
export function greeting(name: string): string {
  const first = name.trim().split(/\s+/)[0];
  return first ? `Olá, ${first}!` : 'Olá!';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 ingresso", "3 ingressos". */
export const tickets = (n: number) => plural(n, 'ingresso', 'ingressos');

/** A validity period in words: "15 minutos", "1 hora", "1 hora e 30 minutos". */
export function duration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return plural(rest, 'minuto', 'minutos');
  if (rest === 0) return plural(hours, 'hora', 'horas');
  return `${plural(hours, 'hora', 'horas')} e ${plural(rest, 'minuto', 'minutos')}`;
}

/** Whole minutes from one instant to another (at least 1): how long a code or link stays valid. */
export function minutesBetween(from: string, to: string): number {
  return Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
}

const ZONE = 'America/Sao_Paulo';

// Made once: building a formatter costs far more than formatting with it, and every e-mail formats several values.
const LONG_DATE = new Intl.DateTimeFormat('pt-BR', {
  timeZone: ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const TIME_OF_DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' });
const REAIS = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** "sábado, 12 de março de 2027", as people in Brazil read an event's day. */
export const longDate = (iso: string) => LONG_DATE.format(new Date(iso));

/** "19:00", in the event's local time (Brasília's, for a deadline). */
export const timeOfDay = (iso: string) => TIME_OF_DAY.format(new Date(iso));

/** "R$ 155,00" from the decimal string money travels as. */
export const reais = (amount: string) => REAIS.format(Number(amount));

/** The subject of every e-mail that tells the buyer how to pay a new order. */
export const payOrderSubject = (eventTitle: string) => `Finalize o pagamento do seu ingresso: ${eventTitle}`;

/** The event's lines in an e-mail's details: its title, day, time and place. */
export const eventFacts = (eventTitle: string, eventDate: string, location: string): [string, string][] => [
  ['Evento', eventTitle],
  ['Data', longDate(eventDate)],
  ['Horário', timeOfDay(eventDate)],
  ['Local', location],
];
