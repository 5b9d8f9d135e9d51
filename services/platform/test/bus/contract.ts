import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { z } from 'zod';
import { DEAD_LETTER_TOPIC, envelopeSchema, envelopeSigningBytes, type Envelope } from '@ticketing/proto';
import { replayDeadLetter, signEnvelope, type Transport } from '../../src/bus/index.ts';
import { signBytes } from '../../src/service-keys.ts';
import { CollaboratorError } from '../../src/http/json-client.ts';
import { waitFor } from '@ticketing/testkit';
import {
  metricValue,
  newSettings,
  openFixture,
  type Fixture,
  type FixtureSettings,
  type thingHappened,
} from './fixture.ts';

const CRASH_PROCESS = fileURLToPath(new URL('./crash-process.ts', import.meta.url));

/** Runs a participant in its own process and resolves when it has killed itself. */
function runUntilKilled(role: 'consumer' | 'relay', settings: FixtureSettings, group: string, killAfter: number) {
  const child = spawn(process.execPath, [CRASH_PROCESS, JSON.stringify({ role, settings, group, killAfter })], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`expected a kill, got code ${code}: ${stderr}`)),
    );
  });
}

/** The transport, noting the partition each event was delivered from. */
function watchPartitions(transport: Transport, partitions: Map<string, number>): Transport {
  return {
    ...transport,
    subscribe: (group, topics, handler) =>
      transport.subscribe(group, topics, async (delivery) => {
        partitions.set(envelopeSchema.parse(JSON.parse(delivery.value)).id, delivery.partition);
        await handler(delivery);
      }),
  };
}

const outage = () => new CollaboratorError('payments', 503, 'payments answered 503');

const keyed = (keys: number, perKey: number) =>
  Array.from({ length: keys * perKey }, (_, i) => ({ key: `k${i % keys}`, n: Math.floor(i / keys) }));

/** The bus's promises, checked the same way against each transport. */
export function busContract(kind: FixtureSettings['kind']) {
  let fixture: Fixture;
  let group: string;
  let topic: string;
  const others: Fixture[] = [];
  beforeEach(async () => {
    fixture = await openFixture(newSettings(kind));
    group = `group-${fixture.settings.schema}`;
    topic = fixture.settings.topic;
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await fixture.close();
  });

  type Thing = z.infer<typeof thingHappened>;

  test(`[${kind}] an event committed with its change is published and consumed, envelope intact`, async () => {
    const transport = fixture.transport();
    await fixture.consume(transport, group, 'a');
    await fixture.relay(transport);
    const ids = await fixture.stage(keyed(2, 5));
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length === ids.length && rows;
    });
    expect(handled.map((row) => row.event_id).sort()).toEqual([...ids].sort());
    const [row] = await fixture.db('outbox').where({ id: ids[0] });
    expect(envelopeSchema.parse(row.envelope)).toMatchObject({ type: fixture.settings.topic, key: 'k0' });
    await waitFor(async () => (await fixture.db('outbox').whereNull('published_at')).length === 0);
  });

  test(`[${kind}] handling an event continues its producer's trace: the consumer span is the producer span's child`, async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('bus');
    const traced = await openFixture(newSettings(kind), { tracer });
    others.push(traced);
    const transport = traced.transport();
    await traced.consume(transport, group, 'a');
    await traced.relay(transport);
    const [id] = await traced.stage([{ key: 'k0', n: 1 }]);
    const consumer = await waitFor(() => exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER));
    const producer = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.PRODUCER)!;
    expect(producer.attributes['messaging.message.id']).toBe(id);
    expect(consumer.attributes['messaging.message.id']).toBe(id);
    expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
  });

  test(`[${kind}] events of one key are handled in the order they were committed`, async () => {
    const transport = fixture.transport();
    await fixture.consume(transport, group, 'a');
    await fixture.relay(transport);
    await fixture.stage(keyed(5, 20));
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length === 100 && rows;
    });
    for (let k = 0; k < 5; k++) {
      const sequence = handled.filter((row) => row.key === `k${k}`).map((row) => row.n);
      expect(sequence).toEqual(Array.from({ length: 20 }, (_, i) => i));
    }
  });

  test(`[${kind}] two members of a group share the work and each event is applied once`, async () => {
    await fixture.consume(fixture.transport('member-a'), group, 'a');
    await fixture.consume(fixture.transport('member-b'), group, 'b');
    await fixture.relay(fixture.transport('relay'));
    const ids = await fixture.stage(keyed(40, 5));
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length >= ids.length && rows;
    });
    await expect(fixture.db('inbox').count({ n: '*' })).resolves.toEqual([{ n: 200 }]);
    expect(new Set(handled.map((row) => row.event_id)).size).toBe(200);
    expect(handled).toHaveLength(200);
    expect(handled.filter((row) => row.member === 'a').length).toBeGreaterThan(0);
    expect(handled.filter((row) => row.member === 'b').length).toBeGreaterThan(0);
  });

  test(`[${kind}] a member killed after handling but before committing: the event comes again and is applied once`, async () => {
    await fixture.relay(fixture.transport('relay'));
    const ids = await fixture.stage(keyed(1, 20));
    await runUntilKilled('consumer', fixture.settings, group, 5);
    const beforeRestart = await fixture.handled();
    expect(beforeRestart.length).toBeGreaterThanOrEqual(5);

    const redelivered: string[] = [];
    const real = fixture.transport('survivor');
    await fixture.consume(
      {
        ...real,
        subscribe: (name, topics, handler) =>
          real.subscribe(name, topics, async (d) => {
            redelivered.push(envelopeSchema.parse(JSON.parse(d.value)).id);
            await handler(d);
          }),
      },
      group,
      'survivor',
    );
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length >= 20 && rows;
    });
    expect(handled.map((row) => row.event_id)).toEqual(ids);
    // The fifth event was handled by the killed member, never acknowledged, delivered again, and skipped.
    expect(redelivered).toContain(ids[4]);
    expect(handled.filter((row) => row.member === 'doomed').map((row) => row.n)).toEqual(
      beforeRestart.map((row) => row.n),
    );
  });

  test(`[${kind}] a poison event goes to the dead-letter topic after its attempts while later events flow`, async () => {
    const transport = fixture.transport();
    const letters: { id: string; payload: { event: { id?: string }; attempts: number; group: string } }[] = [];
    await fixture.consume(transport, group, 'a');
    await fixture.consume(transport, `${group}-dead-letters`, 'ops', {
      handlers: {
        [DEAD_LETTER_TOPIC]: async (payload, { event }) => {
          if (payload.group === group) letters.push({ ...event, payload });
        },
      },
    });
    await fixture.relay(transport);
    const ids = await fixture.stage([
      { key: 'same', n: 1 },
      { key: 'same', n: 2, poison: true },
      { key: 'same', n: 3 },
      { key: 'same', n: 4 },
    ]);
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length === 3 && rows;
    });
    expect(handled.map((row) => row.n)).toEqual([1, 3, 4]);
    await waitFor(() => letters.length === 1);
    expect(letters[0]!.payload).toMatchObject({ group, attempts: 3, event: { id: ids[1] } });
    await expect(fixture.db('inbox').where({ event_id: ids[1] }).first()).resolves.toMatchObject({
      outcome: 'dead_lettered',
    });
    // The letter on the topic and the row kept for a replay share one id.
    await expect(fixture.db('dead_letters').where({ id: letters[0]!.id }).first()).resolves.toMatchObject({
      event_id: ids[1],
    });
  });

  test(`[${kind}] a collaborator outage holds only its event's partition, backing off, and the event is handled once it is back`, async () => {
    const partitions = new Map<string, number>();
    let down = true;
    await fixture.consume(watchPartitions(fixture.transport(), partitions), group, 'a', {
      handlers: {
        [topic]: async (payload: Thing, context) => {
          if (payload.n === 0 && down) throw outage();
          await fixture.record('a')(payload, context);
        },
      },
    });
    await fixture.relay(fixture.transport('relay'));
    const ids = await fixture.stage([
      { key: 'slow', n: 0 },
      { key: 'slow', n: 1 },
      ...Array.from({ length: 12 }, (_, i) => ({ key: `other-${i}`, n: 10 + i })),
    ]);
    const transient = () => metricValue(fixture.metrics, 'bus_retries_total', { topic, outcome: 'transient' });

    // Events of other partitions flow while the failing one is tried again and again.
    const during = await waitFor(async () => {
      const rows = await fixture.handled();
      const delivered = ids.slice(2).filter((id) => partitions.has(id));
      return (await transient()) >= 3 && rows.length > 0 && rows.length === delivered.length && rows;
    });
    const held = partitions.get(ids[0]!);
    expect(during.every((row) => partitions.get(row.event_id) !== held)).toBe(true);
    await expect(fixture.db('dead_letters')).resolves.toEqual([]);
    await expect(fixture.db('inbox').where({ event_id: ids[0] })).resolves.toEqual([]);

    down = false;
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length === ids.length && rows;
    });
    expect(new Set(handled.map((row) => row.event_id)).size).toBe(ids.length);
    expect(handled.filter((row) => row.key === 'slow').map((row) => row.n)).toEqual([0, 1]);
    expect(await metricValue(fixture.metrics, 'bus_retries_total', { topic, outcome: 'recovered' })).toBe(1);
    expect(await metricValue(fixture.metrics, 'bus_events_handled_total', { topic, outcome: 'failed_attempt' })).toBe(
      0,
    );
    expect(await metricValue(fixture.metrics, 'bus_dead_letters_total', { topic })).toBe(0);
  });

  test(`[${kind}] a member holding an event for a long wait closes at once and the next member handles it`, async () => {
    const first = await fixture.consume(fixture.transport('first'), group, 'first', {
      handlers: {
        [topic]: async () => {
          throw outage();
        },
      },
      transientDelayMs: () => 10 * 60_000,
    });
    await fixture.relay(fixture.transport('relay'));
    const ids = await fixture.stage([{ key: 'k', n: 1 }]);
    await waitFor(
      async () => (await metricValue(fixture.metrics, 'bus_retries_total', { topic, outcome: 'transient' })) === 1,
    );
    await first.close();

    await fixture.consume(fixture.transport('next'), group, 'next');
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length > 0 && rows;
    });
    expect(handled).toEqual([expect.objectContaining({ event_id: ids[0], member: 'next' })]);
  });

  test(`[${kind}] a dead letter is kept and counted; its replay is handled once by the fixed handler and skipped by other groups`, async () => {
    const other = await openFixture(
      { ...fixture.settings, schema: `${fixture.settings.schema}_other` },
      { sharesBus: true },
    );
    others.push(other);
    let broken = true;
    const transport = fixture.transport();
    await fixture.consume(transport, group, 'a', {
      handlers: {
        [topic]: async (payload: Thing, context) => {
          if (payload.poison && broken) throw new Error(`cannot handle ${payload.n}`);
          await fixture.record('a')(payload, context);
        },
      },
    });
    // The other service produces the events and consumes them too.
    const otherTransport = other.transport('other');
    await other.consume(otherTransport, `${group}-other`, 'other', { handlers: { [topic]: other.record('other') } });
    await other.relay(otherTransport);
    await fixture.relay(transport);
    const ids = await other.stage([
      { key: 'k', n: 1 },
      { key: 'k', n: 2, poison: true },
      { key: 'k', n: 3 },
    ]);
    await waitFor(async () => (await fixture.handled()).length === 2 && (await other.handled()).length === 3);

    const [letter] = await fixture.db('dead_letters');
    expect(letter).toMatchObject({
      group,
      topic,
      event_id: ids[1],
      attempts: 3,
      error: 'cannot handle 2',
      replayed_at: null,
      envelope: { id: ids[1], key: 'k', type: topic, payload: { n: 2, poison: true } },
    });
    expect(await metricValue(fixture.metrics, 'bus_dead_letters_total', { topic })).toBe(1);
    expect(await metricValue(fixture.metrics, 'bus_dead_letters_unreplayed', { topic })).toBe(1);

    broken = false;
    await expect(replayDeadLetter(fixture.db, letter.id)).resolves.toEqual({
      status: 'replayed',
      group,
      topic,
      eventId: ids[1],
    });
    // It travels again from the outbox of the service that gave up on it.
    await waitFor(() => fixture.db('outbox').where({ id: ids[1] }).whereNotNull('published_at').first());
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length === 3 && rows;
    });
    expect(handled.map((row) => [row.event_id, row.n])).toEqual([
      [ids[0], 1],
      [ids[2], 3],
      [ids[1], 2],
    ]);
    // The other group received the event a second time and skipped it.
    await waitFor(
      async () => (await metricValue(other.metrics, 'bus_events_handled_total', { topic, outcome: 'duplicate' })) === 1,
    );
    expect((await other.handled()).map((row) => row.n)).toEqual([1, 2, 3]);
    await expect(fixture.db('inbox').where({ event_id: ids[1] })).resolves.toEqual([
      expect.objectContaining({ handler: topic, outcome: 'handled' }),
    ]);
    const replayed = await fixture.db('dead_letters').where({ id: letter.id }).first();
    expect(replayed.replayed_at).toBeInstanceOf(Date);
    expect(await metricValue(fixture.metrics, 'bus_dead_letters_unreplayed', { topic })).toBe(0);

    await expect(replayDeadLetter(fixture.db, letter.id)).resolves.toEqual({
      status: 'already_replayed',
      replayedAt: replayed.replayed_at,
    });
    await expect(replayDeadLetter(fixture.db, randomUUID())).resolves.toEqual({ status: 'not_found' });
    expect(await fixture.handled()).toHaveLength(3);
  });

  test(`[${kind}] a payment.confirmed signed with mail's key is refused and kept for operators; payments' own is handled`, async () => {
    const transport = fixture.transport();
    const confirmed: string[] = [];
    await fixture.consume(transport, group, 'a', {
      handlers: {
        'payment.confirmed': async (_payload, { event }) => {
          confirmed.push(event.id);
        },
      },
    });
    const confirmation = (orderId: string): Envelope => ({
      id: randomUUID(),
      type: 'payment.confirmed',
      occurredAt: new Date().toISOString(),
      correlationId: randomUUID(),
      causationId: null,
      key: orderId,
      payload: {
        orderId,
        paymentId: `pay_${orderId}`,
        providerStatus: 'CONFIRMED',
        value: '150.00',
        paidAt: new Date().toISOString(),
      },
    });
    const mail = fixture.keysOf('mail');
    const payments = fixture.keysOf('payments');
    // Mail under its own name, which may not publish payments' events.
    const asMail = signEnvelope(mail, confirmation(randomUUID()));
    // Mail claiming to be payments: the signature is not payments'.
    const posing = { ...confirmation(randomUUID()), producer: 'payments' };
    const claimingPayments = { ...posing, signature: signBytes(mail, envelopeSigningBytes(posing)) };
    // Payments' own event with its value changed on the way.
    const genuine = signEnvelope(payments, confirmation(randomUUID()));
    const altered = { ...genuine, id: randomUUID(), payload: { ...(genuine.payload as object), value: '1.00' } };
    // No signature at all, as before producers signed.
    const unsigned = confirmation(randomUUID());
    const real = signEnvelope(payments, confirmation(randomUUID()));
    const forged = [asMail, claimingPayments, altered, unsigned];
    await transport.publish(
      [...forged, real].map((envelope) => ({
        topic: 'payment.confirmed',
        key: envelope.key,
        value: JSON.stringify(envelope),
      })),
    );

    const letters = await waitFor(async () => {
      const rows = (await fixture.db('dead_letters').where({ topic: 'payment.confirmed' })).filter((row) =>
        forged.some((envelope) => row.envelope.raw?.includes(envelope.id)),
      );
      return confirmed.includes(real.id) && rows.length === forged.length && rows;
    });
    expect(confirmed).toEqual([real.id]);
    const reasonOf = (envelope: Envelope) => letters.find((row) => row.envelope.raw.includes(envelope.id))!.error;
    expect(reasonOf(asMail)).toBe('refused: mail may not publish payment.confirmed');
    expect(reasonOf(claimingPayments)).toBe('refused: the signature does not match the key of payments');
    expect(reasonOf(altered)).toBe('refused: the signature does not match the key of payments');
    expect(reasonOf(unsigned)).toMatch(/^refused: the envelope names no producer/);
    // Kept raw: never handled, never replayable, and holding no place in the inbox that the real event could need.
    expect(letters.every((row) => row.event_id === null)).toBe(true);
    await expect(
      fixture.db('inbox').whereIn(
        'event_id',
        forged.map((envelope) => envelope.id),
      ),
    ).resolves.toEqual([]);
    for (const row of letters)
      await expect(replayDeadLetter(fixture.db, row.id)).resolves.toEqual({ status: 'not_replayable' });
    expect(
      await metricValue(fixture.metrics, 'bus_dead_letters_total', { topic: 'payment.confirmed' }),
    ).toBeGreaterThanOrEqual(4);
  });

  test(`[${kind}] a relay killed between publishing and marking resumes without losing an event`, async () => {
    const ids = await fixture.stage(keyed(3, 10));
    await runUntilKilled('relay', fixture.settings, group, 1);
    await expect(fixture.db('outbox').whereNull('published_at').count({ n: '*' })).resolves.toEqual([{ n: 30 }]);

    const transport = fixture.transport();
    await fixture.consume(transport, group, 'a');
    await fixture.relay(transport);
    const handled = await waitFor(async () => {
      const rows = await fixture.handled();
      return rows.length >= 30 && rows;
    });
    await waitFor(async () => (await fixture.db('outbox').whereNull('published_at')).length === 0);
    expect(handled.map((row) => row.event_id).sort()).toEqual([...ids].sort());
    expect(handled).toHaveLength(30);
  });
}
