import { Router } from '@koa/router';
import { z } from 'zod';
import { SERVICE_UNAVAILABLE, badRequest, defineService, requireAdmin } from '../src/index.ts';
import {
  captureLogs,
  createTestIssuer,
  startTestService,
  TEST_DATABASE_URL,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';

const schemas = { 'probe.happened': z.object({ n: z.number() }) };

const probe = defineService({
  name: 'probe',
  migrations: [
    {
      name: '001_seen',
      up: (db) => db.schema.createTable('seen', (t) => t.integer('n').primary()),
    },
  ],
  setup({ db, outbox, verifyToken }) {
    const router = new Router();
    router.post('/things', async (ctx) => {
      const body = z.object({ n: z.number({ error: 'n deve ser um número' }) }).parse(ctx.request.body);
      if (body.n < 0) throw badRequest('n não pode ser negativo');
      await db.transaction((trx) => outbox.add(trx, 'probe.happened' as never, String(body.n), body));
      ctx.status = 202;
      ctx.body = { ok: true };
    });
    router.get('/admin', requireAdmin(verifyToken), (ctx) => {
      ctx.body = { ok: true };
    });
    router.get('/boom', () => {
      throw new Error('secret internal detail');
    });
    // The session ended under the query, as when PostgreSQL restarts.
    router.get('/database-down', async () => {
      await db.raw('select pg_terminate_backend(pg_backend_pid())');
    });
    return {
      router,
      consumers: {
        'probe.happened': async (payload: { n: number }, { trx }) => {
          await trx('seen').insert({ n: payload.n });
        },
      },
    };
  },
});

let service: TestService<unknown>;
let issuer: Awaited<ReturnType<typeof createTestIssuer>>;
const logs = captureLogs();
// Both URLs reach the same PostgreSQL here; their application names tell which one a connection came from.
const pooledName = uniqueName('pooled');
const directName = uniqueName('direct');
const withName = (name: string) => `${TEST_DATABASE_URL}?application_name=${name}`;

beforeAll(async () => {
  issuer = await createTestIssuer();
  service = await startTestService(probe, {
    verifyToken: issuer.verifyToken,
    eventSchemas: schemas,
    mayPublish: (producer, type) => producer === 'probe' && type === 'probe.happened',
    logStream: logs.stream,
    env: { LOG_LEVEL: 'info', DATABASE_URL: withName(pooledName), DATABASE_DIRECT_URL: withName(directName) },
  });
});
afterAll(() => service.stop());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(service.url + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

test('health, readiness and metrics answer', async () => {
  expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({
    status: 'ok',
    checks: { database: 'ok', redis: 'ok', bus: 'ok' },
  });
  const ready = await fetch(`${service.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', accepting: 'ok' } });
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  expect(metrics).toContain('http_request_duration_seconds');
  expect(metrics).toContain('bus_outbox_pending');
  expect(metrics).toMatch(/dependency_up\{[^}]*dependency="redis"[^}]*\} 1/);
});

test("the bus listens on the direct database URL; the app's queries use the pooled one", async () => {
  const backends = async (name: string) =>
    (await service.db.raw('select query from pg_stat_activity where application_name = ?', [name])).rows.map(
      (row: { query: string }) => row.query,
    );
  expect((await backends(directName)).some((query: string) => query.startsWith('listen'))).toBe(true);
  const pooled = await service.db.raw('select current_setting(?) as name', ['application_name']);
  expect(pooled.rows[0].name).toBe(pooledName);
  expect((await backends(pooledName)).some((query: string) => query.startsWith('listen'))).toBe(false);
});

test('a change and its event commit together and the event is consumed once', async () => {
  const response = await post('/things', JSON.stringify({ n: 7 }), { 'x-request-id': 'req-abc-123' });
  expect(response.status).toBe(202);
  expect(response.headers.get('x-request-id')).toBe('req-abc-123');
  await waitFor(async () => (await service.db('seen').where({ n: 7 })).length === 1);
  const [row] = await service.db('outbox').where({ key: '7' });
  expect(row.envelope).toMatchObject({
    type: 'probe.happened',
    correlationId: 'req-abc-123',
    causationId: null,
    payload: { n: 7 },
  });
  await waitFor(async () => (await service.db('inbox').where({ event_id: row.id, outcome: 'handled' })).length === 1);
  expect(logs.lines.some((line) => line.requestId === 'req-abc-123' && line.msg === 'request')).toBe(true);
});

test('bad input is a 400 with a pt-BR message, never a 500', async () => {
  for (const [body, message] of [
    ['{"n": "x"}', 'n deve ser um número'],
    ['{"n": -1}', 'n não pode ser negativo'],
    ['{not json', 'Requisição inválida: verifique os dados enviados (JSON malformado?)'],
  ]) {
    const response = await post('/things', body!);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
  }
  const huge = await post('/things', JSON.stringify({ n: 1, pad: 'x'.repeat(200_000) }));
  expect(huge.status).toBe(413);
  expect(((await huge.json()) as { message: string }).message).toBe('Requisição grande demais');
});

test('a dependency down for a moment is a 503 to try again, never a 500', async () => {
  const response = await fetch(`${service.url}/database-down`);
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ message: SERVICE_UNAVAILABLE });
  expect(logs.lines.some((line) => line.msg === 'dependency unavailable' && line.path === '/database-down')).toBe(true);
});

test('unknown errors are a bare 500 and unknown routes a 404', async () => {
  const boom = await fetch(`${service.url}/boom`);
  expect(boom.status).toBe(500);
  expect(await boom.json()).toEqual({ message: 'Erro interno' });
  expect(logs.lines.some((line) => line.msg === 'unhandled error')).toBe(true);
  const missing = await fetch(`${service.url}/nothing`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ message: 'Rota não encontrada' });
  const wrongMethod = await fetch(`${service.url}/things`, { method: 'DELETE' });
  expect(wrongMethod.status).toBe(405);
});

test('admin routes refuse anonymous, invalid, expired and non-admin tokens', async () => {
  const get = (token?: string) =>
    fetch(`${service.url}/admin`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect((await get()).status).toBe(401);
  expect((await get('garbage')).status).toBe(401);
  expect((await get(await issuer.sign({ isAdmin: true }, { expiresIn: '-1m' }))).status).toBe(401);
  const other = await createTestIssuer();
  expect((await get(await other.sign({ isAdmin: true }))).status).toBe(401);
  const user = await get(await issuer.sign({ isAdmin: false }));
  expect(user.status).toBe(403);
  expect(await user.json()).toEqual({ message: 'Acesso restrito a administradores' });
  expect((await get(await issuer.sign({ isAdmin: true }))).status).toBe(200);
});
