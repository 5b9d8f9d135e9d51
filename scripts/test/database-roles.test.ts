import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
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
} from '@ticketing/testkit';
import {
  DATABASE_ROLES,
  SERVICE_SCHEMAS,
  createLogger,
  createPostgresTransport,
  defineService,
  provisionDatabaseRoles,
  type DatabaseRole,
  type Knex,
} from '@ticketing/platform';
import { ticketsVerifierService, ticketsWorkerService } from '@ticketing/tickets';

const prefix = `${uniqueName('roles')}_`;
const busSchema = `${prefix}bus`;
const passwords = Object.fromEntries(DATABASE_ROLES.map((role) => [role, randomBytes(12).toString('hex')])) as Record<
  DatabaseRole,
  string
>;
let urls: Record<DatabaseRole, string>;
let catalog: TestService<unknown> | undefined;
const started: TestService<unknown>[] = [];

/** Runs one query as the given role and answers its rows, or the PostgreSQL error code. */
async function as(role: DatabaseRole, sql: string): Promise<unknown[] | string> {
  const client = new pg.Client({ connectionString: urls[role] });
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
  for (const service of started) await service.stop();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  for (const role of [...DATABASE_ROLES.map((name) => `${prefix}${name}`), `${prefix}bus_members`]) {
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
    env: { DATABASE_URL: urls.catalog, DB_SCHEMA: `${prefix}catalog`, BUS_SCHEMA: busSchema },
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
    ...Object.fromEntries(DATABASE_ROLES.map((role) => [`${role.toUpperCase()}_DATABASE_PASSWORD`, passwords[role]])),
  };
  const missing = spawnSync(process.execPath, [entry], {
    env: { ...env, MAIL_DATABASE_PASSWORD: '' },
    encoding: 'utf8',
  });
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain('MAIL_DATABASE_PASSWORD');
});

/** Stands in for orders: a service of that name whose relay publishes order.paid from its outbox, as orders' role. */
const ordersStandIn = defineService({ name: 'orders', migrations: [], setup: () => ({}) });

// Before the forgeries below: the worker would have to get past a forged order.paid first.
test('the door API runs as a role that reads the public ticket keys only, and still verifies tickets', async () => {
  const issuer = await createTestIssuer();
  const env = (role: DatabaseRole, schema: string) => ({
    DATABASE_URL: urls[role],
    DB_SCHEMA: `${prefix}${schema}`,
    BUS_SCHEMA: busSchema,
  });
  // Started together: the door API waits for the worker's migrations, which it may not run itself.
  const [verifier, worker, orders] = await Promise.all([
    startTestService(ticketsVerifierService, {
      verifyToken: issuer.verifyToken,
      env: env('tickets_verifier', 'tickets'),
    }),
    startTestService(ticketsWorkerService, { verifyToken: issuer.verifyToken, env: env('tickets', 'tickets') }),
    startTestService(ordersStandIn, { verifyToken: issuer.verifyToken, env: env('orders', 'orders') }),
  ]);
  started.push(verifier, worker, orders);
  const tickets = pg.escapeIdentifier(`${prefix}tickets`);
  // The next start provisions again, now that the tables exist: the grants stay as narrow.
  await provisionDatabaseRoles({ adminUrl: TEST_DATABASE_URL, passwords, prefix });
  expect(await as('tickets_verifier', `select private_key from ${tickets}.signing_key_secrets`)).toBe('42501');
  expect(await as('tickets_verifier', `select kid, public_key from ${tickets}.signing_keys`)).toHaveLength(1);
  // Nor may it put a key of its own among those the doors trust.
  expect(
    await as('tickets_verifier', `insert into ${tickets}.signing_keys (kid, public_key) values ('forjada', 'x')`),
  ).toBe('42501');
  expect(await as('tickets_verifier', `update ${tickets}.signing_keys set public_key = 'x'`)).toBe('42501');
  expect(await as('tickets', `select private_key from ${tickets}.signing_key_secrets`)).toHaveLength(1);

  const orderId = randomUUID();
  const eventId = randomUUID();
  await orders.db.transaction((trx: Knex.Transaction) =>
    orders.outbox.add(trx, 'order.paid', orderId, {
      orderId,
      orderNumber: 'PED-20270312',
      userId: randomUUID(),
      eventId,
      amount: '155.00',
      paidAt: new Date().toISOString(),
      buyer: { name: 'Maria da Silva', email: 'maria@example.com.br' },
      event: { title: 'Workshop de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo – SP' },
      courtesyLinkId: null,
    }),
  );
  const qrText = await waitFor(async () => {
    const rows = await as('tickets_verifier', `select qr_text from ${tickets}.tickets where order_id = '${orderId}'`);
    return Array.isArray(rows) && rows.length > 0 && (rows[0] as { qr_text: string }).qr_text;
  });
  const admin = `Bearer ${await issuer.sign({ isAdmin: true, name: 'Portaria' })}`;
  const scan = async () => {
    const response = await fetch(`${verifier.url}/api/verify-ticket`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin },
      body: JSON.stringify({ qrCodeData: qrText, eventId }),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  expect(await scan()).toMatchObject({ success: true, code: 'valid', userName: 'Maria da Silva' });
  // A reset lets the same QR code in again: nothing is signed anew.
  const reset = await fetch(`${verifier.url}/api/reset-ticket/${orderId}`, {
    method: 'POST',
    headers: { authorization: admin },
  });
  expect(reset.status).toBe(200);
  expect(await scan()).toMatchObject({ success: true, code: 'valid' });
});

/** Publishes straight to the shared log as a role, as a service's relay does; answers the PostgreSQL error code. */
async function publishAs(role: DatabaseRole, topic: string, value: object): Promise<string | undefined> {
  const transport = createPostgresTransport({
    url: urls[role],
    schema: busSchema,
    logger: createLogger('test', 'silent'),
  });
  try {
    await transport.publish([{ topic, key: 'forja', value: JSON.stringify(value) }]);
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    await transport.close();
  }
}

describe('the shared bus log: each role appends only the event types its service owns', () => {
  const log = `${pg.escapeIdentifier(busSchema)}.log`;
  const offsets = `${pg.escapeIdentifier(busSchema)}.offsets`;

  test("mail's credentials cannot publish order.paid, by the transport or by hand; orders' can", async () => {
    const forged = { id: randomUUID(), type: 'order.paid', payload: { orderId: 'forjado' } };
    expect(await publishAs('mail', 'order.paid', forged)).toBe('42501');
    expect(
      await as(
        'mail',
        `insert into ${log} (topic, partition, "offset", key, value) values ('order.paid', 0, 999, 'k', '{}')`,
      ),
    ).toBe('42501');
    expect(await as('mail', `select * from ${log} where value like '%forjado%'`)).toEqual([]);

    expect(await publishAs('orders', 'order.paid', forged)).toBeUndefined();
    // (A consumer may meanwhile have put the unsigned message among the dead letters: that copy is mail's to see too.)
    expect(await as('mail', `select topic from ${log} where topic = 'order.paid' and value like '%forjado%'`)).toEqual([
      { topic: 'order.paid' },
    ]);
    // Its own event type, and a dead letter, mail may publish.
    expect(await publishAs('mail', 'mail.sent', { id: randomUUID() })).toBeUndefined();
    expect(await publishAs('mail', 'bus.dead-letter', { id: randomUUID() })).toBeUndefined();
  });

  test("no role deletes another's messages or moves another consumer group's offsets", async () => {
    expect(await as('mail', `delete from ${log} where topic = 'order.paid' returning topic`)).toEqual([]);
    expect(
      await as('orders', `select topic from ${log} where topic = 'order.paid' and value like '%forjado%'`),
    ).toEqual([{ topic: 'order.paid' }]);
    // The worker's role moves its group's offsets; mail's sees none of them.
    expect(
      await as(
        'tickets',
        `update ${offsets} set next_offset = next_offset where group_id = 'tickets-worker' returning 1`,
      ),
    ).not.toEqual([]);
    expect(
      await as('mail', `update ${offsets} set next_offset = 99 where group_id = 'tickets-worker' returning group_id`),
    ).toEqual([]);
    expect(
      await as('mail', `insert into ${offsets} (group_id, topic, partition) values ('orders', 'order.paid', 1)`),
    ).toBe('42501');
    expect(await as('mail', `create table ${pg.escapeIdentifier(busSchema)}.extra (id int)`)).toBe('42501');
    expect(await as('mail', `alter table ${log} disable row level security`)).toBe('42501');
  });
});
