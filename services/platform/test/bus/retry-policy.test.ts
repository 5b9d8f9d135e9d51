import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../../src/db.ts';
import { backoffDelayMs } from '../../src/backoff.ts';
import { isTransient } from '../../src/bus/retry-policy.ts';
import { CollaboratorError } from '../../src/http/json-client.ts';

test('a collaborator that is down, failing, throttling or breaking its contract is transient; its refusals and plain errors are not', () => {
  const collaborator = (status: number | null, code?: string) =>
    new CollaboratorError('payments', status, `payments answered ${status}`, { code });
  for (const status of [null, 429, 500, 502, 503, 504]) {
    expect([status, isTransient(collaborator(status))]).toEqual([status, true]);
  }
  expect(isTransient(collaborator(null, 'ECONNREFUSED'))).toBe(true);
  const issues = [{ code: 'custom' as const, path: ['paid'], message: 'Invalid input', input: undefined }];
  expect(isTransient(new CollaboratorError('payments', 200, 'payments answered a bad body', { issues }))).toBe(true);
  for (const status of [400, 401, 404, 409, 422]) {
    expect([status, isTransient(collaborator(status))]).toEqual([status, false]);
  }
  expect(isTransient(new Error('cannot handle'))).toBe(false);
  expect(isTransient(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
  expect(isTransient(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  // node-postgres's own errors when the server restarts under a query, or the connection is gone.
  expect(isTransient(new Error('Connection terminated unexpectedly'))).toBe(true);
  // The same through knex, which puts the query in front.
  const query = 'select "event_id" from "door_assignments" where "user_id" = $1 limit $2';
  expect(isTransient(new Error(`${query} - Connection terminated unexpectedly`))).toBe(true);
  expect(isTransient(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
});

test('PostgreSQL away behind its Unix socket (restarting: no socket file) is transient; a missing file is not', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'no-server-'));
  const db = createDb(`postgres://postgres@127.0.0.1:5432/test?host=${encodeURIComponent(dir)}`, 'public', 1);
  try {
    const failure = await db.raw('select 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(isTransient(failure)).toBe(true);
    const missingFile = await rm(join(dir, 'nothing'), { force: false }).catch((error: unknown) => error);
    expect(missingFile).toMatchObject({ code: 'ENOENT' });
    expect(isTransient(missingFile)).toBe(false);
  } finally {
    await db.destroy();
    await rm(dir, { recursive: true });
  }
});

test('the backoff doubles from its base up to its cap, waiting at least half of each step', () => {
  const lowest = (attempt: number) => backoffDelayMs(attempt, 1000, 300_000, () => 0);
  const highest = (attempt: number) => backoffDelayMs(attempt, 1000, 300_000, () => 1);
  expect([1, 2, 3, 4, 9, 10, 30].map(lowest)).toEqual([500, 1000, 2000, 4000, 128_000, 150_000, 150_000]);
  expect([1, 2, 3, 4, 9, 10, 30].map(highest)).toEqual([1000, 2000, 4000, 8000, 256_000, 300_000, 300_000]);
  const jittered = new Set(Array.from({ length: 20 }, () => backoffDelayMs(5, 1000, 300_000)));
  expect(jittered.size).toBeGreaterThan(1);
  for (const delay of jittered) expect(delay).toBeGreaterThanOrEqual(8000);
});
