import { notFound, searchWords } from '@ticketing/platform';
import { isUuid, type OrderSearchQuery, type OrderTimelineEntry } from '@ticketing/proto';
import { findOrder, searchOrders, type OrderSearch } from '../data/orders-repository.ts';
import { listTimeline } from '../data/timeline-repository.ts';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { readOrders, type OrderRead } from './order-reads.ts';

const SEARCH_PAGE_SIZE = 20;

const ORDER_NUMBER = /^(?:EF-?)?(\d{1,7})$/i;
const CPF_SHAPE = /^[\d.\s-]+$/;

/**
 * What a typed search may be: a name (every word, accents ignored) or part of an e-mail, the buyer's or a holder's, and, when it has their
 * shape, an order id, an order number ("EF-000123", "123") or a CPF (with or without its dots and dash).
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
  };
}

/** The back office's order search, newest first, twenty per page; at least one page even when nothing matches. */
export async function findOrders(
  deps: Pick<OrdersDeps, 'db'>,
  query: OrderSearchQuery,
): Promise<{ orders: Order[]; total: number; totalPages: number }> {
  const { orders, total } = await searchOrders(deps.db, searchKeys(query.q), {
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
  const [read] = await readOrders(deps, [order]);
  return { order: read!, timeline };
}
