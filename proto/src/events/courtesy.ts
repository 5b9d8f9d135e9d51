import { z } from 'zod';
import { eventSnapshot } from './orders.ts';

const money = z.string().regex(/^\d+\.\d{2}$/);

/** A guest redeemed a free link: orders makes the R$ 0,00 paid order, and the ticket follows from order.paid. */
export const courtesyRedeemed = z.object({
  redemptionId: z.uuid(),
  linkId: z.uuid(),
  attendeeId: z.uuid(),
  userId: z.uuid(),
  eventId: z.uuid(),
  /** Who the ticket is for: the name, e-mail and CPF typed in the form. */
  attendee: z.object({ name: z.string(), email: z.string(), cpf: z.string() }),
  event: eventSnapshot,
  /** The type the link's ticket is of; absent from redemptions of links made before links named one. */
  ticketType: z.object({ id: z.uuid(), name: z.string(), requiresDocument: z.boolean() }).optional(),
});

/** An invitation of a mass send: mail sends the redeem link, with the file the admin attached. */
export const courtesyInvited = z.object({
  invitationId: z.uuid(),
  jobId: z.uuid(),
  linkId: z.uuid(),
  code: z.string(),
  redeemUrl: z.url(),
  ticketCount: z.number().int().min(1),
  overridePrice: money.nullable(),
  recipient: z.object({ name: z.string(), email: z.string() }),
  event: eventSnapshot,
  /** Fetched by mail from courtesy's internal API at send time: one file shared by every invitation of the job. */
  attachment: z.object({ id: z.uuid(), filename: z.string(), contentType: z.string() }).nullable(),
});
