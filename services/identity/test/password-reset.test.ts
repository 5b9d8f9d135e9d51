import { createHash } from 'node:crypto';
import { sessionStateKey } from '@ticketing/platform';
import { resetCooldownKey } from '../src/index.ts';
import { claimsOf, makeEmail, startIdentity, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const SENT = { message: 'Se sua conta existir, enviaremos um link para redefinir sua senha.' };
const INVALID_TOKEN = { message: 'Link de redefinição inválido ou expirado. Solicite um novo.' };
const MIN_MS = 400;

const forgot = (email: string) => identity.request('POST', '/api/auth/forgot-password', { body: { email } });
const reset = (token: string, newPassword = 'nova-senha-456', confirmPassword = newPassword) =>
  identity.request('POST', '/api/auth/reset-password', { body: { token, newPassword, confirmPassword } });
const resetsOf = (userId: string) => identity.service.db('password_resets').where({ user_id: userId });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function timed(call: () => Promise<Response>) {
  const started = performance.now();
  const response = await call();
  return { response, ms: performance.now() - started };
}

test('forgot password for an account: a hashed single-use token is stored and its link published', async () => {
  const account = await identity.verified({ name: 'Rita Lopes' });
  const { response, ms } = await timed(() => forgot(account.email.toUpperCase()));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(SENT);
  expect(ms).toBeGreaterThanOrEqual(MIN_MS);

  const [requested] = await identity.events(account.id, 'user.password-reset-requested');
  expect(requested).toEqual({
    type: 'user.password-reset-requested',
    userId: account.id,
    email: account.email,
    name: 'Rita Lopes',
    token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    expiresAt: expect.any(String),
  });
  const [stored] = await resetsOf(account.id);
  expect(stored).toMatchObject({ token_hash: sha256(requested!.token as string), used_at: null });
  const lifetime = stored.expires_at.getTime() - Date.now();
  expect(lifetime).toBeGreaterThan(59 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(60 * 60_000);
  expect(identity.lines('password reset requested')).toContainEqual(expect.objectContaining({ userId: account.id }));
  expect(JSON.stringify(identity.logs.lines)).not.toContain(requested!.token as string);
});

test('forgot password for an unknown address: the same answer, no sooner, nothing stored or sent', async () => {
  const resetsBefore = Number((await identity.service.db('password_resets').count({ n: '*' }))[0]!.n);
  const outboxBefore = Number((await identity.service.db('outbox').count({ n: '*' }))[0]!.n);
  const { response, ms } = await timed(() => forgot(makeEmail('ninguem')));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(SENT);
  expect(ms).toBeGreaterThanOrEqual(MIN_MS);
  expect(Number((await identity.service.db('password_resets').count({ n: '*' }))[0]!.n)).toBe(resetsBefore);
  expect(Number((await identity.service.db('outbox').count({ n: '*' }))[0]!.n)).toBe(outboxBefore);
});

test('asking again within a minute gets the same answer and sends nothing more', async () => {
  const account = await identity.verified();
  for (let i = 0; i < 3; i++) {
    const response = await forgot(account.email);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(SENT);
  }
  expect(await identity.events(account.id, 'user.password-reset-requested')).toHaveLength(1);
  expect(await resetsOf(account.id)).toHaveLength(1);
  const ttl = await identity.service.redis.ttl(resetCooldownKey(account.email));
  expect(ttl).toBeGreaterThan(55);
  expect(ttl).toBeLessThanOrEqual(60);

  // Once the minute is over (the key expires), a new link goes out.
  await identity.service.redis.del(resetCooldownKey(account.email));
  expect((await forgot(account.email)).status).toBe(200);
  expect(await identity.events(account.id, 'user.password-reset-requested')).toHaveLength(2);
});

test('the reset link sets a new password once and ends every session', async () => {
  const account = await identity.verified();
  const { token: session } = await identity.login(account.email, account.password);
  await forgot(account.email);
  await identity.service.redis.del(resetCooldownKey(account.email));
  await forgot(account.email);
  const [first, second] = (await identity.events(account.id, 'user.password-reset-requested')).map(
    (event) => event.token as string,
  );

  const response = await reset(second!);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ message: 'Senha redefinida com sucesso. Faça login com a nova senha.' });

  expect(await identity.sessionIds(account.id)).toEqual([]);
  expect((await resetsOf(account.id)).every((row) => row.used_at instanceof Date)).toBe(true);
  expect(claimsOf((await identity.service.redis.get(sessionStateKey(account.id)))!)).toMatchObject({ sessions: {} });
  for (const old of [account.token, session]) expect((await identity.me(old)).status).toBe(401);

  const refused = await identity.request('POST', '/api/auth/login', {
    body: { email: account.email, password: account.password },
  });
  expect(refused.status).toBe(401);
  const { token } = await identity.login(account.email, 'nova-senha-456');
  expect((await identity.me(token)).status).toBe(200);
  expect(identity.lines('password reset')).toContainEqual(expect.objectContaining({ userId: account.id }));

  // Used, and the other link died with it.
  for (const used of [second!, first!]) {
    const again = await reset(used, 'outra-senha-789');
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual(INVALID_TOKEN);
  }
  expect((await identity.login(account.email, 'nova-senha-456')).token).toBeDefined();
});

test('an expired or unknown token is refused and changes nothing', async () => {
  const account = await identity.verified();
  await forgot(account.email);
  const token = await identity.lastResetToken(account.id);
  await identity.service
    .db('password_resets')
    .where({ user_id: account.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  const before = await identity.userRow(account.id);

  for (const attempt of [token, 'x'.repeat(43), 'token-inventado']) {
    const response = await reset(attempt);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(INVALID_TOKEN);
  }
  expect(await identity.userRow(account.id)).toEqual(before);
  expect((await identity.login(account.email, account.password)).token).toBeDefined();
});

test('five resets with one token at once: exactly one wins', async () => {
  const account = await identity.verified();
  await forgot(account.email);
  const token = await identity.lastResetToken(account.id);
  const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => reset(token, `senha-paralela-${i}`)));
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([200, 400, 400, 400, 400]);
  expect(await identity.sessionIds(account.id)).toEqual([]);
  expect(identity.unhandledErrors()).toEqual([]);
});

test('bad reset input is a 400 with the page messages', async () => {
  const cases: [unknown, string][] = [
    [{ token: 'abc', newPassword: 'nova-senha', confirmPassword: 'outra-senha' }, 'As senhas não coincidem.'],
    [{ token: 'abc', newPassword: 'nova-senha' }, 'As senhas não coincidem.'],
    [{ token: 'abc', newPassword: '123', confirmPassword: '123' }, 'Senha deve ter pelo menos 8 caracteres'],
    [{ newPassword: 'nova-senha', confirmPassword: 'nova-senha' }, 'Token inválido ou ausente.'],
    [{ token: '', newPassword: 'nova-senha', confirmPassword: 'nova-senha' }, 'Token inválido ou ausente.'],
    [
      { token: 't'.repeat(10_001), newPassword: 'nova-senha', confirmPassword: 'nova-senha' },
      'Token inválido ou ausente.',
    ],
  ];
  for (const [body, message] of cases) {
    const response = await identity.request('POST', '/api/auth/reset-password', { body });
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  const forgotBad = await identity.request('POST', '/api/auth/forgot-password', { body: { email: 'nada' } });
  expect(forgotBad.status).toBe(400);
  expect(await forgotBad.json()).toEqual({ message: 'Email inválido' });
  expect(identity.unhandledErrors()).toEqual([]);
});

test('a common password is refused before the link is spent: the same link then sets a good one', async () => {
  const account = await identity.verified();
  expect((await forgot(account.email)).status).toBe(200);
  const token = await identity.lastResetToken(account.id);
  const common = await reset(token, 'Senha123');
  expect({ status: common.status, body: await common.json() }).toEqual({
    status: 400,
    body: { message: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.' },
  });
  expect(await resetsOf(account.id)).toEqual([expect.objectContaining({ used_at: null })]);
  expect((await reset(token, 'uma-senha-so-minha')).status).toBe(200);
});
