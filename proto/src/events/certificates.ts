import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';
import { buyerSnapshot, eventSnapshot } from './orders.ts';

/**
 * A certificate of attendance was issued (or reissued with a corrected name, `replaces` naming the code it replaces):
 * mail sends the holder the PDF, fetched from certificates' internal API at send time.
 */
export const certificateIssued = z.object({
  certificateId: z.uuid(),
  code: z.string(),
  ticketId: z.uuid(),
  orderId: z.uuid(),
  userId: z.uuid(),
  eventId: z.uuid(),
  /** The holder as on the ticket (the name corrected by an administrator, when it was). */
  holder: buyerSnapshot,
  event: eventSnapshot,
  /** Attended hours, as printed ("7,5"), and the page that checks the certificate. */
  hours: z.number().nonnegative(),
  verifyUrl: z.url(),
  issuedAt: isoDateTime,
  replaces: z.string().nullable(),
});
