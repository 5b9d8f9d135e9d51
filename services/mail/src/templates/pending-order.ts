import { z } from 'zod';
import { longDate, reais } from './format.ts';

/** What every e-mail about a new order waiting for payment knows of it. */
export const pendingOrderData = {
  name: z.string(),
  orderNumber: z.string(),
  eventTitle: z.string(),
  eventDate: z.iso.datetime({ offset: true }),
  amount: z.string(),
};

type PendingOrder = { [K in keyof typeof pendingOrderData]: z.infer<(typeof pendingOrderData)[K]> };

/** The order at a glance, as each of those e-mails lists it: event, date, number and total. */
export const pendingOrderFacts = ({
  eventTitle,
  eventDate,
  orderNumber,
  amount,
}: Omit<PendingOrder, 'name'>): [string, string][] => [
  ['Evento', eventTitle],
  ['Data', longDate(eventDate)],
  ['Pedido', orderNumber],
  ['Total', reais(amount)],
];
