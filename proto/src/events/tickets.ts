import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';
import { buyerSnapshot, eventSnapshot, holderSnapshot, orderWithdrawalRequested } from './orders.ts';

/**
 * One ticket per line of a paid order (issued again to a new holder); `qrCodeData` is the QR PNG as a data URL,
 * `qrText` the signed text it encodes. Tickets issued before orders had several name no line (the first, 0), holder
 * (the buyer) or type.
 */
export const ticketIssued = z.object({
  ticketId: z.uuid(),
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  itemIndex: z.number().int().min(0).optional(),
  qrText: z.string(),
  qrCodeData: z.string().startsWith('data:image/png;base64,'),
  buyer: buyerSnapshot,
  holder: holderSnapshot.optional(),
  ticketType: z.object({ id: z.uuid(), name: z.string(), requiresDocument: z.boolean() }).optional(),
  event: eventSnapshot,
});

/**
 * A ticket admitted to one session of its event (`usedAt`: then). Admissions announced before events had sessions
 * name none: they were to the event's one session, whose id is the event's.
 */
export const ticketCheckedIn = z
  .object({
    ticketId: z.uuid(),
    orderId: z.uuid(),
    eventId: z.uuid(),
    sessionId: z.uuid().optional(),
    usedAt: isoDateTime,
    scannedBy: z.uuid(),
  })
  .transform((checkIn) => ({ ...checkIn, sessionId: checkIn.sessionId ?? checkIn.eventId }));

/**
 * An administrator undid a ticket's admission to a session (`sessionId`), or to every session (null, as every reset
 * announced before events had sessions). `firstUsedAt`: the earliest admission the ticket still has, null when none.
 */
export const ticketReset = z.object({
  ticketId: z.uuid(),
  orderId: z.uuid(),
  resetBy: z.uuid(),
  resetAt: isoDateTime,
  sessionId: z.uuid().nullable().default(null),
  firstUsedAt: isoDateTime.nullable().default(null),
});

/** An administrator asked for the ticket e-mail again: mail sends the same e-mail as for ticket.issued, once more. */
export const ticketResent = ticketIssued.extend({ resentBy: z.uuid() });

/**
 * Tickets' answer to a withdrawal: the order's ticket is void (`cancelled`: refused at the door from now on, issued
 * cancelled if it was not issued yet) and orders gives the money back; or the door admitted it first (`admitted`,
 * with when) and the withdrawal is refused: the order stays paid and mail tells the buyer why.
 */
export const ticketWithdrawalDecided = orderWithdrawalRequested.omit({ requestedAt: true }).extend({
  ticketId: z.uuid().nullable(),
  outcome: z.enum(['cancelled', 'admitted']),
  usedAt: isoDateTime.nullable(),
});
