import { z } from 'zod';
import { longDate, reais } from './format.ts';
import { orderData } from './order-data.ts';
import { orderLineData, orderLineFacts, orderLinesText, type OrderLine } from './order-lines.ts';

/** What every e-mail about a new order waiting for payment knows of it. */
export const pendingOrderData = {
  ...orderData,
  /** Its tickets (type, holder, price); none on orders of one ticket before orders had several. */
  lines: z.array(orderLineData).default([]),
};

type PendingOrder = { [K in keyof typeof pendingOrderData]: z.infer<(typeof pendingOrderData)[K]> };
type OrderAtGlance = Omit<PendingOrder, 'name' | 'lines'> & { lines?: OrderLine[] };

/** The order at a glance, as each of those e-mails lists it: event, date, number, each ticket and total. */
export const pendingOrderFacts = ({
  eventTitle,
  eventDate,
  orderNumber,
  amount,
  lines = [],
}: OrderAtGlance): [string, string][] => [
  ['Evento', eventTitle],
  ['Data', longDate(eventDate)],
  ['Pedido', orderNumber],
  ...orderLineFacts(lines),
  ['Total', reais(amount)],
];

/**
 * The text version's opening, then its tickets: "Seu pedido 1234 para … (sábado, …) está aguardando o pagamento" and
 * how (`by`: "de R$ 155,00 por PIX", "do boleto de R$ 155,00").
 */
export const awaitingPaymentText = ({ orderNumber, eventTitle, eventDate, lines = [] }: OrderAtGlance, by: string) =>
  `Seu pedido ${orderNumber} para ${eventTitle} (${longDate(eventDate)}) está aguardando o pagamento ${by}.${orderLinesText(lines)}`;
