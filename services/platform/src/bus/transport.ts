/** A message as the transports carry it: topic = event type, key = aggregate id, value = the envelope as JSON. */
export interface BusMessage {
  topic: string;
  key: string;
  value: string;
  /**
   * Message headers where the transport has them (Kafka): the envelope's `traceparent`, for tools that follow traces
   * without reading the value. Consumers read the envelope's own, which every transport carries.
   */
  headers?: Record<string, string>;
}

export interface Delivery extends BusMessage {
  partition: number;
  offset: string;
}

/**
 * Resolving means "processed": the transport may commit past it. Throwing `RetryLater` means "not before
 * `delayMs`": that message's partition waits (a key's events keep their order) while the others flow. Any other
 * throw means "not now": it is delivered again after the transport's own pause.
 */
export type DeliveryHandler = (delivery: Delivery) => Promise<void>;

export class RetryLater extends Error {
  readonly delayMs: number;

  constructor(delayMs: number, cause?: unknown) {
    super(`delivery held for ${delayMs} ms`, { cause });
    this.name = 'RetryLater';
    this.delayMs = delayMs;
  }
}

export interface Subscription {
  close(): Promise<void>;
}

export interface Transport {
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(group: string, topics: string[], handler: DeliveryHandler): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
