import type { Knex, Logger, Outbox, TraceContext } from '@ticketing/platform';
import { badRequest } from '@ticketing/platform';
import {
  cancelEventMessages,
  catalogMessages,
  offsetMs,
  saoPauloClock,
  type EventPayload,
  type EventSession,
  type InstallmentTerms,
} from '@ticketing/proto';
import type { TicketType } from './ticket-types.ts';

/** An event of the catalog as the use cases see it. */
export interface CatalogEvent {
  id: string;
  title: string;
  description: string;
  date: Date;
  location: string;
  /** Decimal string with two places, as stored in `numeric(10,2)`: "150.00". */
  price: string;
  imageUrl: string | null;
  maxAttendees: number | null;
  currentAttendees: number;
  isActive: boolean;
  listed: boolean;
  /** When it was published; null while it is a draft (out of the storefront, the door and sale). */
  publishedAt: Date | null;
  /** When an administrator cancelled it (for good: off sale, out of the storefront and the door), and why. */
  cancelledAt: Date | null;
  cancelReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its days or blocks by start, at least one: `date` is the first one's start. */
  sessions: CatalogSession[];
  /** What it sells, in the organiser's order, hidden types included: at least one. */
  ticketTypes: TicketType[];
  /** How it sells by card in installments (orders checks a purchase's count against them). */
  installments: InstallmentTerms;
}

/** A session of an event: a day or a block of a day, with its own door. */
export interface CatalogSession {
  id: string;
  startsAt: Date;
  endsAt: Date;
  title: string | null;
}

/** What every catalog use case needs. A transaction may stand in for `db`: the use case then nests in it. */
export interface CatalogDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
}

export const messages = {
  ...catalogMessages,
  ...cancelEventMessages,
  invalidDate: 'Data inválida: use o formato ISO 8601 com fuso horário',
  dateOutOfRange: 'Data fora do intervalo permitido (entre 2000 e 2100)',
  invalidHoldId: 'Identificador de reserva inválido: use até 100 letras, números, "_", "-" ou ":"',
  holdQuantityMismatch: 'Esta reserva já foi registrada com outra quantidade',
  holdItemsMismatch: 'Esta reserva já foi registrada com outros tipos de ingresso',
  holdOtherEvent: 'Esta reserva já foi registrada para outro evento',
  holdReleased: 'Esta reserva já foi liberada',
  keepAboveQuantity: 'Não é possível manter mais vagas do que a reserva tem',
  capacityBelowTaken: (taken: number) =>
    `A capacidade não pode ser menor que os ${taken} ingressos já vendidos ou reservados`,
  pastDate: 'A data do evento deve estar no futuro',
  publishPast: 'Não é possível publicar um evento cuja data já passou',
  unpublishTaken: 'Não é possível voltar a rascunho um evento com ingressos vendidos ou reservados',
  imageRequired: 'Envie uma imagem no campo "image" (JPEG, PNG ou WebP)',
  dateOfSessions: 'Este evento tem mais de uma sessão: altere a data e o horário de cada sessão',
} as const;

/** Spots still free: never below zero; null when the event has no limit. */
export function remainingSpots(event: Pick<CatalogEvent, 'maxAttendees' | 'currentAttendees'>): number | null {
  return event.maxAttendees === null ? null : Math.max(0, event.maxAttendees - event.currentAttendees);
}

/**
 * Open for sale: published, active, not cancelled and still to come. The one place this is decided: holds are
 * refused otherwise, and every event view carries it as `onSale` for the services and pages that sell.
 */
export function isOnSale(
  event: Pick<CatalogEvent, 'publishedAt' | 'isActive' | 'cancelledAt' | 'date'>,
  now = Date.now(),
): boolean {
  return event.publishedAt !== null && event.isActive && event.cancelledAt === null && event.date.getTime() > now;
}

const HOLD_ID = /^[A-Za-z0-9_:-]{1,100}$/;

export function assertHoldId(id: string): void {
  if (!HOLD_ID.test(id)) throw badRequest(messages.invalidHoldId);
}

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/**
 * An ISO 8601 instant the database can store unchanged; without an offset it is a date and time in São Paulo. A
 * calendar day that does not exist (31 February) is refused rather than rolled over into the next month.
 */
export function parseEventDate(value: string): Date {
  const local = !/(Z|[+-]\d{2}:\d{2})$/.test(value);
  const date = local ? saoPauloInstant(value) : new Date(value);
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (Number.isNaN(date.getTime()) || !parts) throw badRequest(messages.invalidDate);
  const [, year, month, day] = parts.map(Number) as [number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) throw badRequest(messages.invalidDate);
  if (date.getTime() < EARLIEST || date.getTime() >= LATEST) throw badRequest(messages.dateOutOfRange);
  return date;
}

/** The date and time an instant shows on a São Paulo clock, as "2030-03-15T09:00". */
export function saoPauloLocal(date: Date): string {
  const clock = saoPauloClock(date);
  return `${clock.year}-${clock.month}-${clock.day}T${clock.hour}:${clock.minute}`;
}

/** São Paulo's offset from UTC at an instant, in ms (historic daylight saving time included). */
const saoPauloOffset = (time: number) => offsetMs(saoPauloClock(new Date(time)));

/** The instant a São Paulo date and time ("2030-03-15T09:00") names; an invalid text gives an invalid date. */
function saoPauloInstant(value: string): Date {
  const asUtc = new Date(`${value}Z`).getTime();
  if (Number.isNaN(asUtc)) return new Date(Number.NaN);
  const guess = asUtc - saoPauloOffset(asUtc);
  return new Date(asUtc - saoPauloOffset(guess));
}

/**
 * Tells the other services what an event looks like now; written in the transaction that changed it, with the trace
 * of the request that changed it (the request running, unless given).
 */
export async function announceChange(
  outbox: Outbox,
  trx: Knex.Transaction,
  event: CatalogEvent,
  trace?: TraceContext,
): Promise<void> {
  await outbox.addAll(trx, [{ type: 'event.changed', key: event.id, payload: changeOf(event), trace }]);
}

function changeOf(event: CatalogEvent): EventPayload<'event.changed'> {
  return {
    eventId: event.id,
    title: event.title,
    date: event.date.toISOString(),
    location: event.location,
    price: event.price,
    isActive: event.isActive,
    listed: event.listed,
    maxAttendees: event.maxAttendees,
    sessions: event.sessions.map(sessionOf),
  };
}

/** A session as the other services and the pages know it: instants as ISO 8601 text. */
export function sessionOf(session: CatalogSession): EventSession {
  return {
    id: session.id,
    startsAt: session.startsAt.toISOString(),
    endsAt: session.endsAt.toISOString(),
    title: session.title,
  };
}
