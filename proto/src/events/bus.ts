import { z } from 'zod';
import { envelopeSchema } from '../envelope.ts';

/** A message a consumer gave up on after its attempts ran out, kept for inspection and replay. */
export const deadLetter = z.object({
  group: z.string(),
  topic: z.string(),
  error: z.string(),
  attempts: z.number().int(),
  event: envelopeSchema
    .partial()
    .passthrough()
    .or(z.object({ raw: z.string() })),
});
