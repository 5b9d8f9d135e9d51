import { z } from 'zod';

/** Every message on the bus travels in this envelope; `payload` is checked against the event's own schema. */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
  key: z.string().min(1),
  payload: z.unknown(),
});

export type Envelope<P = unknown> = Omit<z.infer<typeof envelopeSchema>, 'payload'> & { payload: P };
