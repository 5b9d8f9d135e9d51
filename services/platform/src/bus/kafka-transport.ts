import { Kafka, Partitioners, logLevel, type Admin, type Consumer, type Producer, type SASLOptions } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { RetryLater, type BusMessage, type DeliveryHandler, type Subscription, type Transport } from './transport.ts';

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** How soon a crashed member's partitions move to the others. */
  sessionTimeoutMs?: number;
  /** Partitions one member works on in parallel (order is kept within each). */
  partitionsConsumedConcurrently?: number;
  /** How long an idle fetch waits on the broker; it also bounds how long a disconnect takes. */
  maxWaitTimeMs?: number;
  /** The service's own Kafka user. */
  sasl?: { mechanism: 'scram-sha-512' | 'scram-sha-256' | 'plain'; username: string; password: string };
  ssl?: boolean;
}

const JOIN_WARNING_MS = 30_000;

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** Topic = event type, key = aggregate id (so one aggregate's events stay in one partition, in order). */
export function createKafkaTransport(options: KafkaTransportOptions): Transport {
  const {
    brokers,
    clientId,
    logger,
    sessionTimeoutMs = 10_000,
    partitionsConsumedConcurrently = 2,
    maxWaitTimeMs = 5000,
  } = options;
  const kafka = new Kafka({
    clientId,
    brokers,
    // The same shape for each of the three mechanisms, which kafkajs types one by one.
    sasl: options.sasl as SASLOptions | undefined,
    ssl: options.ssl,
    retry: { initialRetryTime: 200, retries: 10 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }) => {
        const { message, ...extra } = log;
        logger[LEVELS[level] ?? 'info']({ kafka: extra }, message);
      },
  });
  // Each consumer with the timers that will resume its held partitions.
  const consumers = new Map<Consumer, Set<NodeJS.Timeout>>();
  let producer: Promise<Producer> | undefined;
  let admin: Promise<Admin> | undefined;

  const connected = <T extends { connect(): Promise<void> }>(client: T) => client.connect().then(() => client);
  // One request in flight keeps a retried batch from overtaking the next one.
  const getProducer = () =>
    (producer ??= connected(
      kafka.producer({
        maxInFlightRequests: 1,
        allowAutoTopicCreation: true,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
    ).catch((error) => {
      producer = undefined;
      throw error;
    }));
  const getAdmin = () =>
    (admin ??= connected(kafka.admin()).catch((error) => {
      admin = undefined;
      throw error;
    }));

  async function publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const byTopic = new Map<string, { key: string; value: string; headers?: Record<string, string> }[]>();
    for (const { topic, key, value, headers } of messages) {
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { key, value, ...(headers ? { headers } : {}) }]);
    }
    const client = await getProducer();
    await client.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
    });
  }

  async function stop(consumer: Consumer): Promise<void> {
    for (const timer of consumers.get(consumer) ?? []) clearTimeout(timer);
    consumers.delete(consumer);
    await consumer.disconnect();
  }

  async function subscribe(group: string, topics: string[], handler: DeliveryHandler): Promise<Subscription> {
    const consumer = kafka.consumer({
      groupId: group,
      sessionTimeout: sessionTimeoutMs,
      heartbeatInterval: Math.max(500, Math.floor(sessionTimeoutMs / 5)),
      allowAutoTopicCreation: true,
      maxWaitTimeInMs: maxWaitTimeMs,
      retry: { initialRetryTime: 200, retries: 20 },
    });
    // Subscribed means joined: until then the group's partitions belong to the other members.
    const joined = new Promise<void>((resolve) => {
      const stop = consumer.on(consumer.events.GROUP_JOIN, () => {
        stop();
        resolve();
      });
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    const resumes = new Set<NodeJS.Timeout>();
    consumers.set(consumer, resumes);
    await consumer.run({
      partitionsConsumedConcurrently,
      // Offsets are resolved one handled message at a time, so a batch can stop short of its end.
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, pause, isRunning, isStale, commitOffsetsIfNecessary }) => {
        const { topic, partition } = batch;
        for (const message of batch.messages) {
          if (!isRunning() || isStale()) return;
          try {
            await handler({
              topic,
              partition,
              offset: message.offset,
              key: message.key?.toString() ?? '',
              value: message.value?.toString() ?? '',
            });
          } catch (error) {
            // Any other throw leaves the offset uncommitted: kafkajs restarts its fetching and delivers it again.
            if (!(error instanceof RetryLater)) throw error;
            // Only this partition waits; once resumed it is fetched again from this unresolved message.
            const resume = pause();
            const timer = setTimeout(() => {
              resumes.delete(timer);
              resume();
            }, error.delayMs);
            resumes.add(timer);
            return;
          }
          resolveOffset(message.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      },
    });
    const timeout = setTimeout(
      () => logger.warn({ group }, 'still waiting to join the consumer group'),
      JOIN_WARNING_MS,
    );
    await joined;
    clearTimeout(timeout);
    return {
      close: () => stop(consumer),
    };
  }

  return {
    publish,
    subscribe,
    async ping() {
      await (await getAdmin()).describeCluster();
    },
    async close() {
      await Promise.all([...consumers.keys()].map(stop));
      if (producer) await (await producer).disconnect().catch(() => {});
      if (admin) await (await admin).disconnect().catch(() => {});
    },
  };
}
