import type { UserView } from '@ticketing/proto';
import { startService } from '@ticketing/platform';
import { identityService } from '../src/index.ts';
import { claimsOf, headerOf, makeEmail, makeIp, registration, startIdentity, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const login = (body: unknown, ip?: string) => identity.request('POST', '/api/auth/login', { body, ip });
const INVALID = { message: 'Email ou senha inválidos' };
const TOO_MANY = { message: 'Muitas tentativas. Tente novamente em alguns minutos.' };

test('a verified user logs in: a signed 12-hour token and the user, logged, nothing else changes', async () => {
  const account = await identity.verified({ name: 'Carla Nunes', partnerCompany: 'Laboratório Vida' });
  const before = await identity.userRow(account.id);
  const eventsBefore = await identity.events(account.id);

  const response = await login({ email: account.email.toUpperCase(), password: account.password });
  expect(response.status).toBe(200);
  const { token, user } = (await response.json()) as { token: string; user: UserView };
  expect(user).toEqual({
    id: account.id,
    name: 'Carla Nunes',
    email: account.email,
    emailVerified: true,
    isAdmin: false,
    cpf: account.cpf,
    phone: '(31) 98765-4321',
    address: 'Rua da Bahia, 1200 – Centro, Belo Horizonte/MG',
    birthDate: '1990-03-15',
    partnerCompany: 'Laboratório Vida',
    canManageCourtesies: false,
    roles: [],
  });
  const claims = claimsOf(token);
  expect(claims).toEqual({
    sub: account.id,
    email: account.email,
    name: 'Carla Nunes',
    roles: [],
    sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    gen: 0,
    jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    iss: 'ticketing-identity',
    aud: 'ticketing',
    iat: expect.any(Number),
    exp: expect.any(Number),
  });
  await identity.expectTokenToLastItsSession(token, 12 * 3600);
  const [key] = await identity.service.db('signing_keys').whereNull('retired_at');
  expect(headerOf(token)).toEqual({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' });
  expect((await identity.me(token)).status).toBe(200);

  expect(await identity.userRow(account.id)).toEqual(before);
  expect(await identity.events(account.id)).toEqual(eventsBefore);
  expect(identity.lines('user logged in')).toContainEqual(
    expect.objectContaining({ userId: account.id, rememberMe: false, requestId: response.headers.get('x-request-id') }),
  );
  expect(JSON.stringify(identity.logs.lines)).not.toContain(account.password);
});

test('"lembrar-me" makes the token last 7 days', async () => {
  const account = await identity.verified();
  const { token } = await identity.login(account.email, account.password, { rememberMe: true });
  await identity.expectTokenToLastItsSession(token, 7 * 24 * 3600);
  expect(identity.lines('user logged in')).toContainEqual(
    expect.objectContaining({ userId: account.id, rememberMe: true }),
  );
});

test('an unverified user still gets a token, with emailVerified false', async () => {
  const input = registration();
  expect((await identity.request('POST', '/api/auth/register', { body: input })).status).toBe(202);
  const response = await login({ email: input.email, password: input.password });
  expect(response.status).toBe(200);
  const { token, user } = (await response.json()) as { token: string; user: UserView };
  expect(user).toMatchObject({ email: input.email, emailVerified: false });
  expect(await (await identity.me(token)).json()).toMatchObject({ email: input.email, emailVerified: false });
});

test('a wrong password and an unknown e-mail get the same 401', async () => {
  const account = await identity.verified();
  const wrong = await login({ email: account.email, password: 'nao-e-esta' });
  const unknown = await login({ email: makeEmail('ninguem'), password: account.password });
  for (const response of [wrong, unknown]) {
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID);
  }
  expect(identity.lines('login refused')).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ userId: account.id, reason: 'wrong_password' }),
      expect.objectContaining({ userId: null, reason: 'unknown_email' }),
    ]),
  );
});

test('bad login input is a 400 with the form messages', async () => {
  const cases: [unknown, string][] = [
    [{ email: 'nao-e-email', password: 'x' }, 'Email inválido'],
    [{ password: 'x' }, 'Email inválido'],
    [{ email: makeEmail(), password: '' }, 'Senha é obrigatória'],
    [{ email: makeEmail() }, 'Senha é obrigatória'],
    [{ email: makeEmail(), password: 123456 }, 'Senha é obrigatória'],
    [{ email: makeEmail(), password: 'p'.repeat(10_001) }, 'Senha inválida'],
    [{ email: makeEmail(), password: 'x', rememberMe: 'sim' }, 'Opção "lembrar-me" inválida'],
    [{ email: `a\u0000@exemplo.com.br`, password: 'x' }, 'Texto com caracteres inválidos'],
  ];
  for (const [body, message] of cases) {
    const response = await login(body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  const malformed = await identity.request('POST', '/api/auth/login', { raw: '{"email":' });
  expect(malformed.status).toBe(400);
  expect(identity.unhandledErrors()).toEqual([]);
});

const waitKey = (kind: 'pair' | 'account', key: string) => `identity:login:wait:${kind}:${key}`;

test('one address guessing an account waits after five wrong passwords, longer each time; other addresses get in', async () => {
  const account = await identity.verified();
  const ip = makeIp();
  for (let i = 0; i < 5; i++)
    expect((await login({ email: account.email, password: `errada-${i}` }, ip)).status).toBe(401);
  // Stopped before the password is checked, even the right one.
  const sixth = await login({ email: account.email, password: account.password }, ip);
  expect(sixth.status).toBe(429);
  expect(await sixth.json()).toEqual(TOO_MANY);
  expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(20);
  expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(30);
  expect(identity.lines('login throttled')).toContainEqual(expect.objectContaining({ by: 'account' }));
  expect(identity.lines('login refused').filter((line) => line.userId === account.id)).toHaveLength(5);

  // When the wait is over the next wrong password brings a longer one.
  const pair = waitKey('pair', `${account.email}|${ip}`);
  await identity.service.redis.del(pair);
  expect((await login({ email: account.email, password: 'errada-de-novo' }, ip)).status).toBe(401);
  const seventh = await login({ email: account.email, password: account.password }, ip);
  expect(seventh.status).toBe(429);
  expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThan(50);

  // The owner, from an address that has not been failing, is never refused; the guesser still waits.
  expect((await login({ email: account.email, password: account.password })).status).toBe(200);
  expect((await login({ email: account.email, password: account.password }, ip)).status).toBe(429);
});

const CHALLENGED = {
  message:
    'Por segurança, este acesso precisa de confirmação: enviamos um link de acesso para o e-mail da conta, se ela existir. Abra o link para entrar.',
};
const signInWithLink = (token: string, ip?: string) =>
  identity.request('POST', '/api/auth/sign-in-link', { body: { token }, ip });
const linkTokens = async (userId: string) =>
  (await identity.events(userId, 'user.sign-in-link-requested')).map((event) => event.token as string);

test('after many failures on an account, an address that did not fail gets an e-mailed link instead of a password try', async () => {
  const account = await identity.verified();
  const guessers = Array.from({ length: 10 }, () => makeIp());
  for (const ip of guessers) expect((await login({ email: account.email, password: 'chute' }, ip)).status).toBe(401);
  const again = await login({ email: account.email, password: account.password }, guessers[0]);
  expect(again.status).toBe(429);
  expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(30);

  // Any new address, with the right password or a guess: no password is checked, the owner gets a link.
  const owner = makeIp();
  const challenged = await login({ email: account.email, password: account.password }, owner);
  expect(challenged.status).toBe(403);
  expect(await challenged.json()).toEqual(CHALLENGED);
  const guess = await login({ email: account.email, password: 'outro-chute' }, makeIp());
  expect({ status: guess.status, body: await guess.json() }).toEqual({ status: 403, body: CHALLENGED });
  expect(identity.lines('login refused').filter((line) => line.userId === account.id)).toHaveLength(10);
  // One link however many addresses were challenged (no mailbox flood); only its hash is stored.
  const [token, ...more] = await linkTokens(account.id);
  expect(more).toEqual([]);
  const [stored] = await identity.service.db('sign_in_links').where({ user_id: account.id });
  expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(stored.token_hash).not.toContain(token);
  const lifetime = stored.expires_at.getTime() - Date.now();
  expect(lifetime).toBeGreaterThan(14 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(15 * 60_000);

  // The link opens a session once; it clears the account's count, so addresses that failed once try again.
  const opened = await signInWithLink(token!, owner);
  expect(opened.status).toBe(200);
  const session = (await opened.json()) as { token: string; user: UserView };
  expect(session.user).toMatchObject({ id: account.id, email: account.email });
  expect((await identity.me(session.token)).status).toBe(200);
  const reused = await signInWithLink(token!);
  expect({ status: reused.status, body: await reused.json() }).toEqual({
    status: 400,
    body: { message: 'Link de acesso inválido ou expirado. Faça login novamente.' },
  });
  expect((await login({ email: account.email, password: account.password }, guessers[1])).status).toBe(200);
});

test('an unknown e-mail under guessing is challenged the same way, and nothing is sent', async () => {
  const email = makeEmail('ninguem');
  for (let i = 0; i < 10; i++) expect((await login({ email, password: 'chute' })).status).toBe(401);
  const challenged = await login({ email, password: 'chute' });
  expect({ status: challenged.status, body: await challenged.json() }).toEqual({ status: 403, body: CHALLENGED });
  expect(
    await identity.service
      .db('outbox')
      .where({ topic: 'user.sign-in-link-requested' })
      .whereRaw("envelope->'payload'->>'email' = ?", [email]),
  ).toEqual([]);
});

test('two requests with one link at once: one session', async () => {
  const account = await identity.verified();
  for (let i = 0; i < 10; i++) await login({ email: account.email, password: 'chute' });
  expect((await login({ email: account.email, password: account.password })).status).toBe(403);
  const [token] = await linkTokens(account.id);
  const answers = await Promise.all(Array.from({ length: 8 }, () => signInWithLink(token!)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(7).fill(400)]);
  expect((await signInWithLink('nao-e-um-link')).status).toBe(400);
  expect((await signInWithLink('')).status).toBe(400);
});

test('an IPv6 client counts by its /64: hopping between its addresses gets no fresh tries', async () => {
  const account = await identity.verified();
  const block = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
  for (let i = 0; i < 5; i++) {
    const ip = `${block}::${(i + 1).toString(16)}`;
    expect((await login({ email: account.email, password: `errada-${i}` }, ip)).status).toBe(401);
  }
  // Another address of the same /64, even written out in full, waits with the others.
  const [a, b, c, d] = block.split(':');
  const sameBlock = `${a}:0db8:${c}:000${d}:ffff:ffff:ffff:fffe`;
  expect(b).toBe('db8');
  const next = await login({ email: account.email, password: account.password }, sameBlock);
  expect(next.status).toBe(429);
  // A neighbouring /64 is another subscriber: it gets in.
  const neighbour = `${a}:db8:${c}:2::1`;
  expect((await login({ email: account.email, password: account.password }, neighbour)).status).toBe(200);
});

test('an address spraying many accounts is stopped at its budget; the accounts are not', async () => {
  const replica = await startService(
    identityService,
    identity.replicaEnv({ LOG_LEVEL: 'silent', LOGIN_MAX_FAILURES_PER_ADDRESS: '10' }),
  );
  try {
    const at = (body: unknown, ip: string) =>
      fetch(`${replica.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify(body),
      });
    const ip = makeIp();
    const account = await identity.verified();
    for (let i = 0; i < 10; i++)
      expect((await at({ email: makeEmail(`alvo${i}`), password: 'chute' }, ip)).status).toBe(401);
    const blocked = await at({ email: account.email, password: account.password }, ip);
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual(TOO_MANY);
    expect((await at({ email: account.email, password: account.password }, makeIp())).status).toBe(200);
  } finally {
    await replica.close();
  }
});

test('a successful login clears the count of its address on the account', async () => {
  const account = await identity.verified();
  const ip = makeIp();
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 4; i++)
      expect((await login({ email: account.email, password: 'errada' }, ip)).status).toBe(401);
    expect((await login({ email: account.email, password: account.password }, ip)).status).toBe(200);
  }
});
