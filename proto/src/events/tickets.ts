import { z } from 'zod';
import { buyerSnapshot, eventSnapshot } from './orders.ts';

/** One ticket per paid order; `qrCodeData` is the QR PNG as a data URL, `qrText` the signed text it encodes. */
export const ticketIssued = z.object({
  ticketId: z.uuid(),
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  qrText: z.string(),
  qrCodeData: z.string().startsWith('data:image/png;base64,'),
  buyer: buyerSnapshot,
  event: eventSnapshot,
});

export const ticketCheckedIn = z.object({
  ticketId: z.uuid(),
  orderId: z.uuid(),
  eventId: z.uuid(),
  usedAt: z.iso.datetime({ offset: true }),
  scannedBy: z.uuid(),
});

export const ticketReset = z.object({
  ticketId: z.uuid(),
  orderId: z.uuid(),
  resetBy: z.uuid(),
  resetAt: z.iso.datetime({ offset: true }),
});

/** An administrator asked for the ticket e-mail again: mail sends the same e-mail as for ticket.issued, once more. */
export const ticketResent = ticketIssued.extend({ resentBy: z.uuid() });
