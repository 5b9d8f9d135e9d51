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

/** The answer to such an act: what happens next, and the record it changed (under `key`) as its reader now sees it. */
export type ReasonedAnswer<Key extends string, View> = { message: string } & Record<Key, View>;
