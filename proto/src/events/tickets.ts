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
