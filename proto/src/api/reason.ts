import { z } from 'zod';

/**
 * What an administrator writes down before an act that cannot be undone (cancelling an event, refunding an order):
 * kept with it and told to the people it reaches.
 */
export const reasonSchema = (messages: { reasonRequired: string; reasonLength: string }) =>
  z.object(
    {
      reason: z
        .string({ error: messages.reasonRequired })
        .trim()
        .min(3, messages.reasonLength)
        .max(500, messages.reasonLength),
    },
    { error: messages.reasonRequired },
  );
