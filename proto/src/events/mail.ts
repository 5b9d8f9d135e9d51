import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';

/**
 * An e-mail about an order was accepted by the SMTP server (once per e-mail, however often it was sent): the
 * order's timeline shows it. The subject names the event, never the person.
 */
export const mailSent = z.object({
  emailId: z.uuid(),
  orderId: z.uuid(),
  template: z.string(),
  subject: z.string(),
  sentAt: isoDateTime,
});
