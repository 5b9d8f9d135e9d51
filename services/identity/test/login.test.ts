import type { UserView } from '@ticketing/proto';
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
  });
  const claims = claimsOf(token);
  expect(claims).toEqual({
    sub: account.id,
    email: account.email,
    name: 'Carla Nunes',
    adm: false,
    ver: 0,
    iss: 'ticketing-identity',
    aud: 'ticketing',
    iat: expect.any(Number),
    exp: expect.any(Number),
  });
  expect((claims.exp as number) - (claims.iat as number)).toBe(12 * 3600);
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
  const claims = claimsOf(token);
  expect((claims.exp as number) - (claims.iat as number)).toBe(7 * 24 * 3600);
  expect(identity.lines('user logged in')).toContainEqual(
    expect.objectContaining({ userId: account.id, rememberMe: true }),
  );
});

test('an unverified user still gets a token, with emailVerified false', async () => {
  const input = registration();
  expect((await identity.request('POST', '/api/auth/register', { body: input })).status).toBe(201);
  const response = await login({ email: input.email, password: input.password });
  expect(response.status).toBe(200);
  const { token, user } = (await response.json()) as { token: string; user: UserView };
  expect(user).toMatchObject({ email: input.email, emailVerified: false });
  expect(await (await identity.me(token)).json()).toMatchObject({ email: input.email, emailVerified: false });
});

test('a wrong password and an unknown e-mail get the same 401, in comparable time', async () => {
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

  // An unknown e-mail still pays for one password check: it is not answered much faster.
  const timed = async (email: string) => {
    const started = performance.now();
    await login({ email, password: 'nao-e-esta' });
    return performance.now() - started;
  };
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const known: number[] = [];
  const unknownTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const other = await identity.verified();
    known.push(await timed(other.email));
    unknownTimes.push(await timed(makeEmail('ninguem')));
  }
  expect(median(unknownTimes)).toBeGreaterThan(median(known) * 0.5);
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

test('ten wrong passwords lock the account: the 11th attempt is 429 from any address, before the password is checked', async () => {
  const account = await identity.verified();
  for (let i = 0; i < 10; i++) {
    const response = await login({ email: account.email, password: `errada-${i}` });
    expect(response.status).toBe(401);
  }
  const eleventh = await login({ email: account.email, password: account.password });
  expect(eleventh.status).toBe(429);
  expect(await eleventh.json()).toEqual(TOO_MANY);
  expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  const elsewhere = await login({ email: account.email, password: account.password }, makeIp());
  expect(elsewhere.status).toBe(429);
  expect(identity.lines('login throttled')).toContainEqual(expect.objectContaining({ by: 'account' }));
  // No password was checked for the refused attempts: they are not counted as refusals.
  expect(identity.lines('login refused').filter((line) => line.userId === account.id)).toHaveLength(10);

  // The count lives in Redis for the window; when it ends, the right password works again.
  const key = `identity:login-failures:account:${account.email}`;
  expect(Number(await identity.service.redis.get(key))).toBe(10);
  expect(await identity.service.redis.ttl(key)).toBeGreaterThan(14 * 60);
  await identity.service.redis.del(key);
  expect((await login({ email: account.email, password: account.password })).status).toBe(200);
});

test('ten failures from one address across accounts block that address, not the accounts', async () => {
  const ip = makeIp();
  const account = await identity.verified();
  for (let i = 0; i < 10; i++) {
    const response = await login({ email: makeEmail(`alvo${i}`), password: 'chute' }, ip);
    expect(response.status).toBe(401);
  }
  const blocked = await login({ email: account.email, password: account.password }, ip);
  expect(blocked.status).toBe(429);
  expect(await blocked.json()).toEqual(TOO_MANY);
  expect(identity.lines('login throttled')).toContainEqual(expect.objectContaining({ by: 'ip', ip }));
  expect((await login({ email: account.email, password: account.password }, makeIp())).status).toBe(200);
});

test('a successful login clears the account count', async () => {
  const account = await identity.verified();
  for (let i = 0; i < 9; i++) expect((await login({ email: account.email, password: 'errada' })).status).toBe(401);
  expect((await login({ email: account.email, password: account.password })).status).toBe(200);
  for (let i = 0; i < 9; i++) expect((await login({ email: account.email, password: 'errada' })).status).toBe(401);
  expect((await login({ email: account.email, password: account.password })).status).toBe(200);
});
