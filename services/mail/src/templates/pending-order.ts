import { z } from 'zod';
import { longDate } from './format.ts';
import { orderData } from './order-data.ts';
import { orderLineData, orderLineFacts, orderLinesText, type OrderLine } from './order-lines.ts';
import { orderTotalData, orderTotalFacts, orderTotalText } from './order-total.ts';

/** What every e-mail about a new order waiting for payment knows of it. */
export const pendingOrderData = {
  ...orderData,
  /** Its tickets (type, holder, price); none on orders of one ticket before orders had several. */
  lines: z.array(orderLineData).default([]),
  ...orderTotalData,
};

type PendingOrder = { [K in keyof typeof pendingOrderData]: z.infer<(typeof pendingOrderData)[K]> };
type OrderAtGlance = Omit<PendingOrder, 'name' | 'lines' | 'discountAmount' | 'installments'> & {
  lines?: OrderLine[];
  discountAmount?: string | null;
  installments?: number;
};

/** The order at a glance, as each of those e-mails lists it: event, date, number, each ticket and total. */
export const pendingOrderFacts = ({ eventTitle, eventDate, orderNumber, lines = [], ...total }: OrderAtGlance) =>
  [
    ['Evento', eventTitle],
    ['Data', longDate(eventDate)],
    ['Pedido', orderNumber],
    ...orderLineFacts(lines),
    ...orderTotalFacts(total),
  ] as [string, string][];

/**
 * The text version's opening, then its tickets and, with a discount or installments, the total's lines: "Seu pedido
 * 1234 para … (sábado, …) está aguardando o pagamento" and how (`by`: "de R$ 155,00 por PIX", "do boleto de R$ 155,00").
 */
export const awaitingPaymentText = (order: OrderAtGlance, by: string) => {
  const { orderNumber, eventTitle, eventDate, lines = [] } = order;
  const total = orderTotalFacts(order).length > 1 ? `\n\n${orderTotalText(order)}` : '';
  return `Seu pedido ${orderNumber} para ${eventTitle} (${longDate(eventDate)}) está aguardando o pagamento ${by}.${orderLinesText(lines)}${total}`;
};
