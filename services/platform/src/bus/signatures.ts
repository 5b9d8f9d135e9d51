import { envelopeSigningBytes, signedEnvelopeSchema, type Envelope, type SignedEnvelope } from '@ticketing/proto';
import { signBytes, verifyBytes, type ServiceKeys } from '../service-keys.ts';

/** Whether `producer` may publish events of `type`: proto's `mayPublish` for the product's events. */
export type PublishRule = (producer: string, type: string) => boolean;

/**
 * The envelope as it leaves: named after its producer and signed with the producer's key. One signed already (a
 * dead letter replayed) travels as its producer signed it: a consumer checks that producer's signature, not ours.
 */
export function signEnvelope(keys: ServiceKeys, envelope: Envelope | SignedEnvelope): SignedEnvelope {
  if ('signature' in envelope && envelope.signature) return envelope;
  const named = { ...envelope, producer: keys.name };
  return { ...named, signature: signBytes(keys, envelopeSigningBytes(named)) };
}

/** Why a delivered message is not what its producer published, or undefined when it is. */
export function refusal(
  keys: ServiceKeys,
  mayPublish: PublishRule,
  topic: string,
  message: unknown,
): string | undefined {
  const signed = signedEnvelopeSchema.safeParse(message);
  if (!signed.success) return 'refused: the envelope names no producer or carries no signature';
  const { producer, type, signature } = signed.data;
  if (type !== topic) return `refused: a ${type} envelope on the ${topic} topic`;
  if (!mayPublish(producer, type)) return `refused: ${producer} may not publish ${type}`;
  if (!verifyBytes(keys, producer, envelopeSigningBytes(message as Record<string, unknown>), signature))
    return `refused: the signature does not match the key of ${producer}`;
  return undefined;
}
