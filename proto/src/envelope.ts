import { z } from 'zod';

/** An instant as events and answers carry it: ISO 8601 with its offset. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** Every message on the bus travels in this envelope; `payload` is checked against the event's own schema. */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  occurredAt: isoDateTime,
  correlationId: z.string().min(1),
  causationId: z.string().min(1).nullable(),
  key: z.string().min(1),
  payload: z.unknown(),
  /**
   * The W3C trace context of the producer's span, which the consumer's span continues. Optional (events from before
   * it, or from a producer not tracing, have none) and never refused for its form: a malformed one starts a new trace.
   */
  traceparent: z.string().max(256).optional(),
});

export type Envelope<P = unknown> = Omit<z.infer<typeof envelopeSchema>, 'payload'> & { payload: P };

/**
 * An envelope as it travels: the service that produced it (its name on the bus) and that service's Ed25519
 * signature (base64url) over every other field, so a consumer knows who sent it and that nothing was changed.
 */
export const signedEnvelopeSchema = envelopeSchema.extend({
  producer: z.string().min(1),
  signature: z.string().min(1),
});

export type SignedEnvelope<P = unknown> = Envelope<P> & { producer: string; signature: string };

/** JSON with the keys of every object sorted: the same bytes whichever store (jsonb, Kafka) carried it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The bytes a producer signs: the whole envelope but its signature, fields unknown to this version included. */
export function envelopeSigningBytes(envelope: Record<string, unknown>): Uint8Array {
  const { signature: _signature, ...signed } = envelope;
  return new TextEncoder().encode(canonicalJson(signed));
}
