import { AppError } from '@ticketing/platform';
import { CONVENIENCE_FEE_CENTS, fromCents, toCents, type OrderItemInput, type PromoQuote } from '@ticketing/proto';
import type { Buyer } from '../clients/identity.ts';
import { messages, type OrderItem } from './order.ts';
import type { HeldSpots } from './spots.ts';

/**
 * The order's lines, from what the catalog held: each ticket's type, lot and price (a promotional code's price
 * replaces the one ticket's), and its holder: the one named, or the buyer ('Este ingresso é meu'). A type that asks
 * for a document needs its holder's CPF (the buyer's own for the buyer's ticket): 422 naming the type otherwise.
 */
export function orderItems(
  held: HeldSpots,
  asked: OrderItemInput[] | undefined,
  buyer: Buyer,
  promo: PromoQuote | null,
): OrderItem[] {
  return held.lines.map((line, index) => {
    const named = asked?.[index]?.holder;
    const holder = named
      ? { name: named.name, email: named.email, cpf: named.cpf ?? null }
      : { name: buyer.name, email: buyer.email, cpf: buyer.cpf };
    if (line.requiresDocument && !holder.cpf) throw new AppError(422, messages.holderCpfRequired(line.typeName));
    return {
      index,
      ticketTypeId: line.ticketTypeId,
      typeName: line.typeName,
      lotName: line.lotName,
      price: promo?.overridePrice ?? line.price,
      requiresDocument: line.requiresDocument,
      holder,
    };
  });
}

/** What the buyer pays: every ticket's price plus the convenience fee each, less a coupon's discount (in cents). */
export function orderAmount(items: OrderItem[], discountCents = 0): string {
  return fromCents(items.reduce((sum, item) => sum + toCents(item.price) + CONVENIENCE_FEE_CENTS, 0) - discountCents);
}

/** The tickets by type, in their order: '2× Profissional, 1× Estudante'. */
export function saleSummary(items: OrderItem[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.typeName, (counts.get(item.typeName) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count}× ${name}`).join(', ');
}
