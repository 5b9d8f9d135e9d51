import { z } from 'zod';

/** What every e-mail about a buyer's order knows of it: the buyer, its number, its event and its amount. */
export const orderData = {
  name: z.string(),
  orderNumber: z.string(),
  eventTitle: z.string(),
  eventDate: z.iso.datetime({ offset: true }),
  amount: z.string(),
};

/** An order already paid (a courtesy's amount is "0.00"): where its event takes place too. */
export const paidOrderData = { ...orderData, location: z.string() };
