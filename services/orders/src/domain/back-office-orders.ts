import { notFound, searchWords } from '@ticketing/platform';
import { cnpjCharacters, isUuid, isValidCnpj, type OrderSearchQuery, type OrderTimelineEntry } from '@ticketing/proto';
import { findOrder, searchOrders, type OrderSearch } from '../data/orders-repository.ts';
import { listTimeline } from '../data/timeline-repository.ts';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { readOrder, type OrderRead } from './order-reads.ts';

const SEARCH_PAGE_SIZE = 20;

const ORDER_NUMBER = /^(?:EF-?)?(\d{1,7})$/i;
const CPF_SHAPE = /^[\d.\s-]+$/;

/**
 * What a typed search may be: a name (every word, accents ignored) or part of an e-mail, the buyer's or a holder's
 * (or the company's razão social), and, when it has their shape, an order id, an order number ("EF-000123", "123"),
 * a CPF or a CNPJ (with or without their punctuation).
 */
function searchKeys(text: string): OrderSearch | null {
  if (!text) return null;
  const number = ORDER_NUMBER.exec(text)?.[1];
  const digits = text.replace(/\D/g, '');
  return {
    nameWords: searchWords(text),
    email: text.toLowerCase(),
    id: isUuid(text) ? text.toLowerCase() : null,
    orderNumber: number ? `EF-${number.padStart(6, '0')}` : null,
    cpfDigits: CPF_SHAPE.test(text) && digits.length === 11 ? digits : null,
    cnpjChars: isValidCnpj(text) ? cnpjCharacters(text) : null,
  };
}

/**
 * The back office's order search, newest first, twenty per page, only company purchases (or only personal ones) when
 * asked; at least one page even when nothing matches.
 */
export async function findOrders(
  deps: Pick<OrdersDeps, 'db'>,
  query: OrderSearchQuery,
): Promise<{ orders: Order[]; total: number; totalPages: number }> {
  const { orders, total } = await searchOrders(deps.db, searchKeys(query.q), query.company, {
    offset: (query.page - 1) * SEARCH_PAGE_SIZE,
    limit: SEARCH_PAGE_SIZE,
  });
  return { orders, total, totalPages: Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE)) };
}

/** One order for the back office, with its tickets and what happened to it from its creation on. */
export async function orderHistory(
  deps: Pick<OrdersDeps, 'db' | 'payments' | 'logger'>,
  orderId: string,
): Promise<{ order: OrderRead; timeline: OrderTimelineEntry[] }> {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw notFound(messages.orderNotFound);
  const created: OrderTimelineEntry = { at: order.createdAt.toISOString(), kind: 'created', detail: null };
  const timeline = [created, ...(await listTimeline(deps.db, order.id))];
  return { order: await readOrder(deps, order), timeline };
}
