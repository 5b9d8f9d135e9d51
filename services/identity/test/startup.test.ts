import {
  busMigrations,
  createDb,
  createLogger,
  migrate,
  sessionStateKey,
  startService,
  type RunningService,
} from '@ticketing/platform';
import { TEST_DATABASE_URL, dropSchemas, uniqueName } from '@ticketing/testkit';
import { ensureSigningKey, identityMigrations, identityService } from '../src/index.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  claimsOf,
  makeEmail,
  startIdentity,
  startNeighbour,
  type Identity,
} from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

/** Runs `body` against another replica of the service, started with `env`, and stops it afterwards. */
async function withReplica<T>(env: Record<string, string>, body: (replica: RunningService) => Promise<T>) {
  const replica = await startService(identityService, identity.replicaEnv(env));
  try {
    return await body(replica);
  } finally {
    await replica.close();
  }
}

const meAt = async (replica: RunningService, token: string) =>
  (await fetch(`${replica.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json();

test('a Redis that lost every session state neither logs anyone out nor brings an ended session back', async () => {
  const account = await identity.verified();
  const changed = await identity.request('PUT', '/api/profile/password', {
    token: account.token,
    body: { currentPassword: account.password, newPassword: 'nova-senha-segura' },
  });
  expect(changed.status).toBe(200);
  const { token: fresh } = (await changed.json()) as { token: string };
  const untouched = await identity.verified();
  const neighbour = await startNeighbour(identity);
  try {
    expect((await neighbour.whoami(account.token)).status).toBe(401);

    // Redis restarts empty: the states come back from identity's database on the next check.
    for (const id of [account.id, untouched.id]) await identity.service.redis.del(sessionStateKey(id));
    expect((await neighbour.whoami(account.token)).status).toBe(401);
    expect((await neighbour.whoami(fresh)).status).toBe(200);
    expect((await neighbour.whoami(untouched.token)).status).toBe(200);
    expect(claimsOf((await identity.service.redis.get(sessionStateKey(account.id)))!).sessions).toEqual({
      [String(claimsOf(fresh).sid)]: { generation: 0, endsAt: expect.any(Number) },
    });
  } finally {
    await neighbour.service.stop();
  }
});

test('a replica shares the signing key and the administrator; nothing is created twice', async () => {
  const keysBefore = await identity.service.db('signing_keys');
  const account = await identity.verified();
  await withReplica({}, async (replica) => {
    const response = await fetch(`${replica.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const { token } = (await response.json()) as { token: string };
    // A token from one replica works on the other.
    expect((await identity.me(token)).status).toBe(200);
    expect(await meAt(replica, account.token)).toMatchObject({ id: account.id });
  });
  expect(await identity.service.db('signing_keys')).toEqual(keysBefore);
  expect(await identity.service.db('users').where({ email: ADMIN_EMAIL })).toHaveLength(1);
});

test('replicas starting together on an empty database create one key and one administrator', async () => {
  const schema = uniqueName('identity_fresh');
  const env = identity.replicaEnv({ DB_SCHEMA: schema });
  // Tables first (the platform's migration lock only holds once its bookkeeping table exists), then the
  // replicas' start-up work all at once.
  const db = createDb(TEST_DATABASE_URL, schema, 2);
  await migrate(db, schema, [...busMigrations, ...identityMigrations]).finally(() => db.destroy());
  const started = await Promise.allSettled([1, 2, 3].map(() => startService(identityService, env)));
  const replicas = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  try {
    expect(replicas).toHaveLength(3);
    const db = replicas[0]!.db;
    expect(await db('signing_keys')).toHaveLength(1);
    expect(await db('users').where({ email: ADMIN_EMAIL, is_admin: true, email_verified: true })).toHaveLength(1);
    const [admin] = await db('users').where({ email: ADMIN_EMAIL });
    expect(await db('outbox').where({ key: admin.id, topic: 'user.registered' })).toHaveLength(1);
  } finally {
    for (const replica of replicas) await replica.close();
    await dropSchemas([schema]);
  }
});

test('ten concurrent key checks on a store without keys create exactly one key', async () => {
  const schema = uniqueName('identity_keys');
  const db = createDb(TEST_DATABASE_URL, schema, 10);
  try {
    await migrate(db, schema, [...busMigrations, ...identityMigrations]);
    const logger = createLogger('identity', 'silent');
    // Ten open connections first, so the ten checks really run side by side.
    await Promise.all(Array.from({ length: 10 }, () => db.transaction((trx) => trx.raw('select pg_sleep(0.05)'))));
    await Promise.all(Array.from({ length: 10 }, () => ensureSigningKey({ db, logger })));
    expect(await db('signing_keys')).toHaveLength(1);
  } finally {
    await db.destroy();
    await dropSchemas([schema]);
  }
});

test('an account that already has the administrator e-mail is not made administrator', async () => {
  const account = await identity.verified();
  await withReplica({ ADMIN_EMAIL: account.email, ADMIN_PASSWORD: 'outra-senha-admin' }, async (replica) => {
    expect(await identity.userRow(account.id)).toMatchObject({ is_admin: false });
    expect(await identity.service.db('users').where({ email: account.email })).toHaveLength(1);
    expect(await meAt(replica, account.token)).toMatchObject({ isAdmin: false, canManageCourtesies: false });
  });
});

test('courtesy managers come from the configuration (the administrator when unset or empty)', async () => {
  const { token: adminToken } = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const manager = await identity.verified({ email: makeEmail('gestora') });
  await identity.service.db('users').where({ id: manager.id }).update({ is_admin: true });
  const notAdmin = await identity.verified();

  await withReplica(
    { COURTESY_MANAGER_EMAILS: ` ${manager.email.toUpperCase()} , outra@exemplo.com.br` },
    async (replica) => {
      expect(await meAt(replica, adminToken)).toMatchObject({ isAdmin: true, canManageCourtesies: false });
      expect(await meAt(replica, manager.token)).toMatchObject({ isAdmin: true, canManageCourtesies: true });
      expect(await meAt(replica, notAdmin.token)).toMatchObject({ canManageCourtesies: false });
    },
  );
  await withReplica({ COURTESY_MANAGER_EMAILS: '' }, async (replica) => {
    expect(await meAt(replica, adminToken)).toMatchObject({ canManageCourtesies: true });
    expect(await meAt(replica, manager.token)).toMatchObject({ canManageCourtesies: false });
  });
});

test('a bad setting stops the service with a message naming it', async () => {
  for (const [name, value] of [
    ['TOKEN_TTL', 'doze horas'],
    ['TOKEN_TTL_REMEMBER', '0d'],
    ['ADMIN_EMAIL', 'nao-e-email'],
    ['VERIFICATION_SECRET', 'curto'],
    ['LOGIN_MAX_FAILURES_PER_ADDRESS', '0'],
  ] as const) {
    await expect(startService(identityService, identity.replicaEnv({ [name]: value }))).rejects.toThrow(
      new RegExp(`Invalid configuration:\\n  ${name}: `),
    );
  }
});

test('shorter token lifetimes come from the configuration', async () => {
  const account = await identity.verified();
  await withReplica({ TOKEN_TTL: '30m', TOKEN_TTL_REMEMBER: '2h' }, async (replica) => {
    for (const [rememberMe, lifetime] of [
      [false, 30 * 60],
      [true, 2 * 3600],
    ] as const) {
      const response = await fetch(`${replica.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password, rememberMe }),
      });
      const { token } = (await response.json()) as { token: string };
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(lifetime);
    }
  });
});
