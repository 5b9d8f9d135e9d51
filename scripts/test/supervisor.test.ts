import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@ticketing/testkit';
import { freePort } from '../lib/free-port.ts';
import { alive } from './alive.ts';
import { createSupervisor } from '../lib/supervisor.ts';

/** A service in miniature: answers every request with this run's key, or exits at once with CRASH set. */
const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
const serviceScript = join(dir, 'service.mjs');
writeFileSync(
  serviceScript,
  `if (process.env.CRASH) process.exit(3);
import('node:http').then(({ createServer }) =>
  createServer((request, response) => response.end(process.env.RUN_KEY)).listen(Number(process.env.PORT), '127.0.0.1'));
`,
);
afterAll(() => rmSync(dir, { recursive: true }));

const answer = (port: number) =>
  fetch(`http://127.0.0.1:${port}/`).then(
    (response) => response.text(),
    () => undefined,
  );

/** Stands for the secrets npm start makes at every start: a restarted process must get the same ones. */
const randomKeyOfRun = randomBytes(12).toString('base64url');
const runService =
  (port: number, env: Record<string, string> = {}) =>
  () =>
    spawn(process.execPath, [serviceScript], {
      env: { ...process.env, PORT: String(port), RUN_KEY: randomKeyOfRun, ...env },
      stdio: 'ignore',
    });
test('a SIGKILLed service comes back with the same secrets while the others keep answering; stop ends all', async () => {
  const lines: string[] = [];
  const supervisor = createSupervisor({
    backoff: { firstMs: 300, maxMs: 5_000, resetAfterMs: 60_000 },
    log: (line) => lines.push(line),
  });
  const [identityPort, catalogPort] = [await freePort(), await freePort()];
  supervisor.start('identity', runService(identityPort));
  supervisor.start('catalog', runService(catalogPort));
  await waitFor(async () => (await answer(identityPort)) === randomKeyOfRun && (await answer(catalogPort)));
  const identityPid = supervisor.child('identity')!.pid!;
  const killedPid = supervisor.child('catalog')!.pid!;

  process.kill(killedPid, 'SIGKILL');
  // Until catalog is back, identity answers every request, from the same process.
  let identityAnswers = 0;
  await waitFor(
    async () => {
      expect(await answer(identityPort)).toBe(randomKeyOfRun);
      identityAnswers += 1;
      const catalogPid = supervisor.child('catalog')?.pid;
      return catalogPid !== undefined && catalogPid !== killedPid && (await answer(catalogPort)) === randomKeyOfRun;
    },
    { timeoutMs: 10_000 },
  );
  expect(identityAnswers).toBeGreaterThan(1);
  expect(supervisor.child('identity')!.pid).toBe(identityPid);
  expect(supervisor.restarts('catalog')).toBe(1);
  expect(supervisor.restarts('identity')).toBe(0);
  expect(lines).toEqual(['[catalog] stopped unexpectedly (signal SIGKILL); restart #1 in 0.3 s']);

  const pids = [identityPid, supervisor.child('catalog')!.pid!];
  await supervisor.stop();
  expect(pids.filter(alive)).toEqual([]);
  expect([supervisor.child('identity'), supervisor.child('catalog')]).toEqual([undefined, undefined]);
  expect(supervisor.restarts('identity') + supervisor.restarts('catalog')).toBe(1);
});

test('a service that keeps dying waits twice as long each time, up to a cap; stopping cancels its restart', async () => {
  const lines: string[] = [];
  const supervisor = createSupervisor({
    backoff: { firstMs: 50, maxMs: 200, resetAfterMs: 60_000 },
    log: (line) => lines.push(line),
  });
  supervisor.start('mail', runService(await freePort(), { CRASH: '1' }));
  await waitFor(() => supervisor.restarts('mail') >= 5, { timeoutMs: 10_000 });
  expect(lines.slice(0, 5)).toEqual(
    [50, 100, 200, 200, 200].map(
      (ms, i) => `[mail] stopped unexpectedly (exit code 3); restart #${i + 1} in ${ms / 1000} s`,
    ),
  );

  // Stopped while it waits for a restart: no process is started any more.
  await waitFor(() => supervisor.child('mail') === undefined);
  const restarts = supervisor.restarts('mail');
  await supervisor.stop();
  await new Promise((resolve) => setTimeout(resolve, 400)); // longer than the longest backoff: a restart would show
  expect(supervisor.child('mail')).toBeUndefined();
  expect(supervisor.restarts('mail')).toBe(restarts);
});

test('a service that stayed up long enough is restarted after the first backoff again', async () => {
  const lines: string[] = [];
  const supervisor = createSupervisor({
    // Long enough that a process started on a busy machine answers well within it before the first two kills.
    backoff: { firstMs: 50, maxMs: 1_000, resetAfterMs: 5_000 },
    log: (line) => lines.push(line),
  });
  const port = await freePort();
  supervisor.start('orders', runService(port));
  const killWhenAnswering = async () => {
    await waitFor(async () => (await answer(port)) === randomKeyOfRun);
    const pid = supervisor.child('orders')!.pid!;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => supervisor.child('orders')?.pid !== pid);
  };
  await killWhenAnswering();
  await killWhenAnswering();
  // Up for longer than resetAfterMs: healthy again.
  await waitFor(async () => (await answer(port)) === randomKeyOfRun);
  await new Promise((resolve) => setTimeout(resolve, 5_100)); // the time up is what this test is about
  await killWhenAnswering();
  await supervisor.stop();
  expect(lines.map((line) => line.replace(/.*; /, ''))).toEqual([
    'restart #1 in 0.05 s',
    'restart #2 in 0.1 s',
    'restart #3 in 0.05 s',
  ]);
});
