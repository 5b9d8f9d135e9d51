import { waitFor } from '@ticketing/testkit';
import { resendCooldownKey } from '../src/index.ts';
import { claimsOf, makeEmail, startIdentity, type Account, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const verify = (email: string, code: string) =>
  identity.request('POST', '/api/auth/verify-code', { body: { email, code } });
const resend = (email: string) => identity.request('POST', '/api/auth/resend-code', { body: { email } });
const INVALID_CODE = { message: 'Código inválido ou expirado' };
const CODE_SENT = { message: 'Se o e-mail estiver cadastrado e não verificado, enviaremos um novo código.' };
const TOO_SOON = { message: 'Aguarde 30 segundos para solicitar um novo código.' };

/** Ends an address's resend cooldown the way time does: the Redis key expires. */
async function endCooldown(email: string) {
  const key = resendCooldownKey(email);
  await identity.service.redis.pexpire(key, 1);
  await waitFor(async () => (await identity.service.redis.exists(key)) === 0);
}

const codesOf = (userId: string) =>
  identity.service.db('verification_codes').where({ user_id: userId }).orderBy('created_at');

/** A code that is not the right one. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('the right code verifies the e-mail and opens a session', async () => {
  const account = await identity.registered({ name: 'Paulo Reis' });
  const code = await identity.lastCode(account.id);
  const eventsBefore = await identity.events(account.id);

  const response = await verify(account.email.toUpperCase(), code);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { token: string; message: string };
  expect(body).toEqual({ token: expect.any(String), message: 'E-mail verificado com sucesso' });
  expect(claimsOf(body.token)).toMatchObject({ sub: account.id, email: account.email, name: 'Paulo Reis', gen: 0 });
  expect(await (await identity.me(body.token)).json()).toMatchObject({ id: account.id, emailVerified: true });

  expect(await identity.userRow(account.id)).toMatchObject({ email_verified: true });
  const [stored] = await codesOf(account.id);
  expect(stored.consumed_at).toBeInstanceOf(Date);
  expect(await identity.events(account.id)).toEqual(eventsBefore);
  expect(identity.lines('email verified')).toContainEqual(expect.objectContaining({ userId: account.id }));
  expect(JSON.stringify(identity.logs.lines)).not.toContain(body.token);

  // A used code does not work twice.
  expect(await (await verify(account.email, code)).json()).toEqual(INVALID_CODE);
});

test('five wrong codes, then the code is locked (429) even for the right one, until a new code is sent', async () => {
  const account = await identity.registered();
  const code = await identity.lastCode(account.id);
  for (let i = 0; i < 5; i++) {
    const response = await verify(account.email, wrongCode(code));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(INVALID_CODE);
  }
  const sixth = await verify(account.email, wrongCode(code));
  expect(sixth.status).toBe(429);
  expect(await sixth.json()).toEqual({ message: 'Muitas tentativas com este código. Solicite um novo código.' });
  const right = await verify(account.email, code);
  expect(right.status).toBe(429);
  expect(await identity.userRow(account.id)).toMatchObject({ email_verified: false });
  expect((await codesOf(account.id)).map((row) => row.attempts)).toEqual([5]);

  await endCooldown(account.email);
  expect((await resend(account.email)).status).toBe(200);
  const fresh = await identity.lastCode(account.id);
  expect((await verify(account.email, fresh)).status).toBe(200);
});

test('twelve wrong guesses at once are counted one by one: five 400s, then 429s', async () => {
  const account = await identity.registered();
  const code = await identity.lastCode(account.id);
  const responses = await Promise.all(Array.from({ length: 12 }, () => verify(account.email, wrongCode(code))));
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([...Array(5).fill(400), ...Array(7).fill(429)]);
  expect((await codesOf(account.id)).map((row) => row.attempts)).toEqual([5]);
});

test('an expired code is refused like a wrong one', async () => {
  const account = await identity.registered();
  const code = await identity.lastCode(account.id);
  await identity.service
    .db('verification_codes')
    .where({ user_id: account.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  const response = await verify(account.email, code);
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual(INVALID_CODE);
  expect(await identity.userRow(account.id)).toMatchObject({ email_verified: false });
});

test('a code of another address, an unknown address or a replaced code does not verify', async () => {
  const first = await identity.registered();
  const second = await identity.registered();
  const firstCode = await identity.lastCode(first.id);
  // (Should both codes happen to be the same six digits, use another: the point is a code that is not theirs.)
  const notTheirs = firstCode === (await identity.lastCode(second.id)) ? wrongCode(firstCode) : firstCode;
  const crossed = await verify(second.email, notTheirs);
  expect(crossed.status).toBe(400);
  expect(await identity.userRow(second.id)).toMatchObject({ email_verified: false });
  expect(await (await verify(makeEmail('ninguem'), firstCode)).json()).toEqual(INVALID_CODE);

  await endCooldown(first.email);
  expect((await resend(first.email)).status).toBe(200);
  const replaced = await verify(first.email, firstCode);
  expect(replaced.status).toBe(400);
  expect(await identity.userRow(first.id)).toMatchObject({ email_verified: false });
  // The replaced code stays for the day's count of wrong codes, expired; the wrong try counts on the new one.
  const [old, current] = await codesOf(first.id);
  expect(old.expires_at.getTime()).toBeLessThanOrEqual(current.created_at.getTime());
  expect(current.attempts).toBe(1);
});

test('bad codes are a 400 with the contract message', async () => {
  const cases: [unknown, string][] = [
    [{ email: makeEmail(), code: '12345' }, 'O código deve ter 6 dígitos'],
    [{ email: makeEmail(), code: '1234567' }, 'O código deve ter 6 dígitos'],
    [{ email: makeEmail(), code: 'abcdef' }, 'O código deve ter 6 dígitos'],
    [{ email: makeEmail(), code: 123456 }, 'O código deve ter 6 dígitos'],
    [{ email: makeEmail() }, 'O código deve ter 6 dígitos'],
    [{ email: 'x', code: '123456' }, 'Email inválido'],
    [{ email: makeEmail(), code: '12345\u0000' }, 'Texto com caracteres inválidos'],
    [[], 'Entrada inválida: esperava um objeto, recebeu um vetor'],
  ];
  for (const [body, message] of cases) {
    const response = await identity.request('POST', '/api/auth/verify-code', { body });
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  expect(identity.unhandledErrors()).toEqual([]);
});

test('resending a code: the same answer for any address, a new code only for an unverified account', async () => {
  const unverified = await identity.registered();
  const verified = await identity.verified();
  const unknown = makeEmail('ninguem');
  for (const account of [unverified, verified]) await endCooldown(account.email);
  const before = {
    unverified: (await identity.events(unverified.id)).length,
    verified: (await identity.events(verified.id)).length,
  };

  for (const email of [unverified.email, verified.email, unknown]) {
    const response = await resend(email);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(CODE_SENT);
  }
  const unverifiedEvents = await identity.events(unverified.id);
  expect(unverifiedEvents).toHaveLength(before.unverified + 1);
  expect(unverifiedEvents.at(-1)).toMatchObject({ type: 'user.verification-code-issued', email: unverified.email });
  expect(await identity.events(verified.id)).toHaveLength(before.verified);
  expect(await identity.service.db('users').where({ email: unknown })).toEqual([]);
  expect(identity.lines('verification code issued')).toContainEqual(expect.objectContaining({ userId: unverified.id }));
});

test('a second resend within 30 seconds is 429 for any address; after the cooldown it works', async () => {
  const account = await identity.registered();
  // Registering just sent a code: the resend button waits its 30 seconds from there.
  const right = await resend(account.email);
  expect(right.status).toBe(429);
  expect(await right.json()).toEqual(TOO_SOON);

  const unknown = makeEmail('ninguem');
  expect((await resend(unknown)).status).toBe(200);
  const again = await resend(unknown.toUpperCase());
  expect(again.status).toBe(429);
  expect(await again.json()).toEqual(TOO_SOON);
  const ttl = await identity.service.redis.ttl(resendCooldownKey(unknown));
  expect(ttl).toBeGreaterThan(25);
  expect(ttl).toBeLessThanOrEqual(30);

  const codesBefore = (await identity.events(account.id, 'user.verification-code-issued')).length;
  await endCooldown(account.email);
  expect((await resend(account.email)).status).toBe(200);
  expect(await identity.events(account.id, 'user.verification-code-issued')).toHaveLength(codesBefore + 1);
  expect((await resend(account.email)).status).toBe(429);
});

test('the logged-in user asks for a new code: same answer, same cooldown, nothing for a verified one', async () => {
  const resendFor = (account?: Account) =>
    identity.request('POST', '/api/auth/resend-verification', { token: account?.token });
  const anonymous = await resendFor();
  expect(anonymous.status).toBe(401);

  const account = await identity.registered();
  const during = await resendFor(account);
  expect(during.status).toBe(429);
  expect(await during.json()).toEqual(TOO_SOON);
  await endCooldown(account.email);
  const codesBefore = (await identity.events(account.id, 'user.verification-code-issued')).length;
  const response = await resendFor(account);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(CODE_SENT);
  expect(await identity.events(account.id, 'user.verification-code-issued')).toHaveLength(codesBefore + 1);
  // The public button shares the cooldown.
  expect((await resend(account.email)).status).toBe(429);
  expect((await verify(account.email, await identity.lastCode(account.id))).status).toBe(200);

  const done = await identity.verified();
  await endCooldown(done.email);
  const eventsBefore = await identity.events(done.id);
  const verifiedResponse = await resendFor(done);
  expect(verifiedResponse.status).toBe(200);
  expect(await verifiedResponse.json()).toEqual(CODE_SENT);
  expect(await identity.events(done.id)).toEqual(eventsBefore);
});

test('resend input is checked like any other', async () => {
  for (const body of [{}, { email: 'nada' }, { email: 42 }]) {
    const response = await identity.request('POST', '/api/auth/resend-code', { body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Email inválido' });
  }
});

test('new codes do not bring new guesses without end: fifteen wrong codes a day, across resends, then 429', async () => {
  const account = await identity.registered();
  for (let round = 0; round < 3; round++) {
    const code = await identity.lastCode(account.id);
    for (let i = 0; i < 5; i++) expect((await verify(account.email, wrongCode(code))).status).toBe(400);
    await endCooldown(account.email);
    expect((await resend(account.email)).status).toBe(200);
  }
  // A fresh code, even the right one, is refused for the rest of the day.
  const fresh = await identity.lastCode(account.id);
  const refused = await verify(account.email, fresh);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ message: 'Muitas tentativas de código hoje. Tente novamente amanhã.' });
  expect(await identity.userRow(account.id)).toMatchObject({ email_verified: false });
  expect((await codesOf(account.id)).map((row) => row.attempts)).toEqual([5, 5, 5, 0]);

  // A day later the account may try again.
  await identity.service
    .db('verification_codes')
    .where({ user_id: account.id })
    .whereNot({ attempts: 0 })
    .update({ created_at: identity.service.db.raw("now() - interval '25 hours'") });
  expect((await verify(account.email, fresh)).status).toBe(200);
});
