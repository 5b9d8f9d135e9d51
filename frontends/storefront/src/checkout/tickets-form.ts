import { z } from 'zod';
import {
  CONVENIENCE_FEE_CENTS,
  couponDiscountCents,
  DEFAULT_TYPE_NAME,
  holderSchema,
  MAX_TICKETS_PER_ORDER,
  orderItemMessages,
  toCents,
  type CouponQuote,
  type EventView,
  type OrderItemInput,
  type TicketTypeView,
} from '@ticketing/proto';
import type { Promo } from './types.ts';

/** One ticket being chosen: its type, and whom it is for (`mine`: the buyer, 'Este ingresso é meu'). */
export interface TicketChoice {
  ticketTypeId: string;
  mine: boolean;
  name: string;
  email: string;
  cpf: string;
}

export interface TicketsForm {
  tickets: TicketChoice[];
}

export const newTicket = (ticketTypeId: string, mine = false): TicketChoice => ({
  ticketTypeId,
  mine,
  name: '',
  email: '',
  cpf: '',
});

const ticketChoice = z.object({
  ticketTypeId: z.string(),
  mine: z.boolean(),
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
});

/**
 * The checkout's tickets as the order asks for them (`createOrderSchema`'s `items`): the buyer's own ticket without a
 * holder, any other with its holder checked by `holderSchema`, and the CPF only for a type that asks for a document.
 */
export function ticketsFormSchema(types: readonly TicketTypeView[]) {
  const typeOf = new Map(types.map((type) => [type.id, type]));
  return z
    .object({
      tickets: z
        .array(ticketChoice)
        .min(1, orderItemMessages.tooFewTickets)
        .max(MAX_TICKETS_PER_ORDER, orderItemMessages.tooManyTickets),
    })
    .transform(({ tickets }, ctx): { items: OrderItemInput[] } => ({
      items: tickets.map((ticket, index) => {
        if (ticket.mine) return { ticketTypeId: ticket.ticketTypeId };
        const type = typeOf.get(ticket.ticketTypeId);
        const path = ['tickets', index];
        const needsCpf = type?.requiresDocument ?? false;
        if (needsCpf && !ticket.cpf) {
          ctx.addIssue({
            code: 'custom',
            message: orderItemMessages.holderCpfRequired(type!.name),
            path: [...path, 'cpf'],
          });
        }
        const holder = holderSchema.safeParse({
          name: ticket.name,
          email: ticket.email,
          ...(needsCpf && ticket.cpf ? { cpf: ticket.cpf } : {}),
        });
        if (!holder.success) {
          for (const issue of holder.error.issues) {
            ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
          }
          return { ticketTypeId: ticket.ticketTypeId };
        }
        return { ticketTypeId: ticket.ticketTypeId, holder: holder.data };
      }),
    }));
}

/** One line of the order's summary: the tickets of one type, at its current price. */
export interface SummaryLine {
  /** Null for an event whose types the catalog does not list. */
  ticketTypeId: string | null;
  name: string;
  lotName: string | null;
  count: number;
  /** One ticket's price, without the fee. */
  price: string;
}

/**
 * The summary's lines: the tickets chosen, by type in the organiser's order. An event whose types the catalog does
 * not list sells one ticket at the event's price.
 */
export function summaryLines(event: Pick<EventView, 'price' | 'ticketTypes'>, tickets: readonly TicketChoice[]) {
  if (event.ticketTypes.length === 0) {
    return [{ ticketTypeId: null, name: DEFAULT_TYPE_NAME, lotName: null, count: 1, price: event.price }];
  }
  return event.ticketTypes
    .map((type) => ({
      ticketTypeId: type.id,
      name: type.name,
      lotName: type.currentLot?.name ?? null,
      count: tickets.filter((ticket) => ticket.ticketTypeId === type.id).length,
      price: type.price,
    }))
    .filter((line) => line.count > 0);
}

/**
 * What the buyer pays, in cents: each ticket's price (the promotional one when a code applies, to the order's one
 * ticket) plus the fee each, less a coupon's discount.
 */
export function totalCents(lines: readonly SummaryLine[], promo: Promo | null, discount = 0): number {
  const full = lines.reduce(
    (total, line) => total + line.count * (toCents(promo?.price ?? line.price) + CONVENIENCE_FEE_CENTS),
    0,
  );
  return full - discount;
}

/**
 * What a coupon takes off the tickets chosen, in cents (`couponDiscountCents`, as the server reckons it). The ticket
 * of an event without listed types counts only for a coupon of every type.
 */
export function discountCents(coupon: CouponQuote, lines: readonly SummaryLine[]): number {
  const tickets = lines.flatMap((line) =>
    Array.from({ length: line.count }, () => ({ ticketTypeId: line.ticketTypeId ?? '', price: line.price })),
  );
  return couponDiscountCents(coupon, tickets);
}

export const ticketCount = (lines: readonly SummaryLine[]) => lines.reduce((count, line) => count + line.count, 0);
