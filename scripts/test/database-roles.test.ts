import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { catalogService } from '@ticketing/catalog';
import {
  TEST_DATABASE_URL,
  createTestIssuer,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/platform/testing';
import { SERVICE_SCHEMAS, provisionDatabaseRoles, type ServiceSchema } from '@ticketing/platform';

const prefix = `${uniqueName('roles')}_`;
const passwords = Object.fromEntries(
  SERVICE_SCHEMAS.map((schema) => [schema, randomBytes(12).toString('hex')]),
) as Record<ServiceSchema, string>;
let urls: Record<ServiceSchema, string>;
let catalog: TestService<unknown> | undefined;

/** Runs one query as the given service's role and answers its rows, or the PostgreSQL error code. */
async function as(schema: ServiceSchema, sql: string): Promise<unknown[] | string> {
  const client = new pg.Client({ connectionString: urls[schema] });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  urls = await provisionDatabaseRoles({ adminUrl: TEST_DATABASE_URL, passwords, prefix });
});

afterAll(async () => {
  await catalog?.stop();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  for (const role of [...SERVICE_SCHEMAS.map((schema) => `${prefix}${schema}`), `${prefix}bus_members`]) {
    await admin.query(`drop schema if exists ${pg.escapeIdentifier(role)} cascade`);
    await admin.query(`drop owned by ${pg.escapeIdentifier(role)} cascade`);
    await admin.query(`drop role ${pg.escapeIdentifier(role)}`);
  }
  await admin.query(`drop schema if exists ${pg.escapeIdentifier(`${prefix}bus`)} cascade`);
  await admin.end();
});

test('a service runs on its own role: migrations, its tables and the shared bus log work; no other schema is readable', async () => {
  const issuer = await createTestIssuer();
  catalog = await startTestService(catalogService, {
    verifyToken: issuer.verifyToken,
    env: { DATABASE_URL: urls.catalog, DB_SCHEMA: `${prefix}catalog`, BUS_SCHEMA: `${prefix}bus` },
  });
  const created = await fetch(`${catalog.url}/api/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await issuer.sign({ isAdmin: true })}` },
    body: JSON.stringify({
      title: 'Workshop de Boas Práticas',
      description: 'Um dia de prática.',
      date: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      location: 'São Paulo',
      price: '100.00',
      maxAttendees: 10,
    }),
  });
  expect(created.status).toBe(201);
  const log = `${pg.escapeIdentifier(`${prefix}bus`)}.log`;
  // The relay wrote the event to the shared log as catalog; orders reads it there.
  await waitFor(async () => {
    const rows = await as('orders', `select topic from ${log} where topic = 'event.changed'`);
    return Array.isArray(rows) && rows.length > 0;
  });
  expect(await as('orders', `select * from ${pg.escapeIdentifier(`${prefix}catalog`)}.events`)).toBe('42501');
});

test('a fresh connection of a role finds its own tables without setting anything (as through a transaction pooler)', async () => {
  expect(await as('catalog', 'show search_path')).toEqual([{ search_path: `${prefix}catalog, public` }]);
  expect(await as('catalog', 'select count(*)::int as events from events')).toEqual([{ events: 1 }]);
});

test("identity's signing keys are readable by identity alone", async () => {
  const keys = `${pg.escapeIdentifier(`${prefix}identity`)}.signing_keys`;
  expect(await as('identity', `create table ${keys} (kid text primary key, private_key text)`)).toEqual([]);
  expect(await as('identity', `insert into ${keys} values ('k1', 'segredo')`)).toEqual([]);
  expect(await as('identity', `select kid from ${keys}`)).toEqual([{ kid: 'k1' }]);
  for (const other of SERVICE_SCHEMAS.filter((schema) => schema !== 'identity'))
    expect([other, await as(other, `select * from ${keys}`)]).toEqual([other, '42501']);
});

test('running it again (every start) keeps working and changes the passwords', async () => {
  const rotated = { ...passwords, mail: randomBytes(12).toString('hex') };
  const again = await provisionDatabaseRoles({ adminUrl: TEST_DATABASE_URL, passwords: rotated, prefix });
  expect(new URL(again.mail).password).toBe(rotated.mail);
  expect(await as('identity', `select kid from ${pg.escapeIdentifier(`${prefix}identity`)}.signing_keys`)).toEqual([
    { kid: 'k1' },
  ]);
});

test('deployments run the same set-up as a step of their own, which names a missing password', () => {
  const entry = fileURLToPath(new URL('../../services/platform/src/database-roles-main.ts', import.meta.url));
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: TEST_DATABASE_URL,
    ...Object.fromEntries(
      SERVICE_SCHEMAS.map((schema) => [`${schema.toUpperCase()}_DATABASE_PASSWORD`, passwords[schema]]),
    ),
  };
  const missing = spawnSync(process.execPath, [entry], {
    env: { ...env, MAIL_DATABASE_PASSWORD: '' },
    encoding: 'utf8',
  });
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain('MAIL_DATABASE_PASSWORD');
});
