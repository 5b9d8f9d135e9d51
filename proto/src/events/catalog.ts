import { z } from 'zod';

/** Published by catalog whenever an event's public data or its availability changes. */
export const eventChanged = z.object({
  eventId: z.uuid(),
  title: z.string(),
  date: z.iso.datetime({ offset: true }),
  location: z.string(),
  price: z.string(),
  isActive: z.boolean(),
  listed: z.boolean(),
  maxAttendees: z.number().int().nullable(),
  currentAttendees: z.number().int(),
});
