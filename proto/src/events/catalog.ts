import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';

/**
 * Published by catalog whenever what an event is changes: its public data, status or capacity. A spot held or given
 * back moves only its count, which the catalog answers when asked: through a sales rush nobody hears each step.
 */
export const eventChanged = z.object({
  eventId: z.uuid(),
  title: z.string(),
  date: isoDateTime,
  location: z.string(),
  price: z.string(),
  isActive: z.boolean(),
  listed: z.boolean(),
  maxAttendees: z.number().int().nullable(),
  /**
   * Its sessions by start (`date` is the first one's). Absent only from announcements made before events had
   * sessions: the event then has one, whose id is the event's (see `sessionsOrWhole`).
   */
  sessions: z
    .array(z.object({ id: z.uuid(), startsAt: isoDateTime, endsAt: isoDateTime, title: z.string().nullable() }))
    .optional(),
});

/**
 * Published by catalog when an administrator cancels an event that has not happened yet: its orders are to be
 * refunded or cancelled and every holder told, with the reason. Published once per event.
 */
export const eventCancelled = z.object({
  eventId: z.uuid(),
  reason: z.string(),
  cancelledAt: isoDateTime,
  event: z.object({
    title: z.string(),
    date: isoDateTime,
    location: z.string(),
  }),
});
