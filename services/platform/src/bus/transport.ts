/** A message as the transports carry it: topic = event type, key = aggregate id, value = the envelope as JSON. */
export interface BusMessage {
  topic: string;
  key: string;
  value: string;
}

export interface Delivery extends BusMessage {
  partition: number;
  offset: string;
}

/** Resolving means "processed": the transport may commit past it. Throwing means "not now": it is delivered again. */
export type DeliveryHandler = (delivery: Delivery) => Promise<void>;

export interface Subscription {
  close(): Promise<void>;
}

export interface Transport {
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(group: string, topics: string[], handler: DeliveryHandler): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
