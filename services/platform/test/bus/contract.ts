import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEAD_LETTER_TOPIC, envelopeSchema } from '@ticketing/proto';
import { waitFor } from '../../src/testing.ts';
import { newSettings, openFixture, type Fixture, type FixtureSettings } from './fixture.ts';

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

const keyed = (keys: number, perKey: number) =>
  Array.from({ length: keys * perKey }, (_, i) => ({ key: `k${i % keys}`, n: Math.floor(i / keys) }));

/** The bus's promises, checked the same way against each transport. */
export function busContract(kind: FixtureSettings['kind']) {
  let fixture: Fixture;
  let group: string;
  beforeEach(async () => {
    fixture = await openFixture(newSettings(kind));
    group = `group-${fixture.settings.schema}`;
  });
  afterEach(() => fixture.close());

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
    const letters: { payload: { event: { id?: string }; attempts: number; group: string } }[] = [];
    await fixture.consume(transport, group, 'a');
    await fixture.consume(transport, `${group}-dead-letters`, 'ops', {
      [DEAD_LETTER_TOPIC]: async (payload, { event }) => {
        if (payload.group === group) letters.push({ ...event, payload });
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
