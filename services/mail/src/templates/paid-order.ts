import { z } from 'zod';

/** What the e-mails about an order already paid know of it: the buyer, its number, its event and the amount paid. */
export const paidOrderData = {
  name: z.string(),
  orderNumber: z.string(),
  eventTitle: z.string(),
  eventDate: z.iso.datetime({ offset: true }),
  location: z.string(),
  /** "0.00" for a courtesy. */
  amount: z.string(),
};
