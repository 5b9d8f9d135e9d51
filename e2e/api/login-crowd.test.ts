import { randomInt } from 'node:crypto';
import { PUBLIC_URL, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

/**
 * A carrier's CGNAT or a venue's Wi-Fi puts everyone behind one address. The gateway trusts one proxy here, so a
 * request names its address in X-Forwarded-For; the crowd comes from the gateway's own socket address.
 */
let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem({ mail: true, gatewayEnv: { TRUST_PROXY: '1' } });
});
afterAll(() => system.stop());

const ADMIN = { email: 'admin@educacaofarma.com.br', password: 'admin123' };
const CROWD = 300;
const MISTYPED = 30;

/** A login through the gateway, from `address` or else the crowd's; its status and when to try again. */
async function login(body: { email: string; password: string }, address?: string) {
  const response = await fetch(`${system.gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(address ? { 'x-forwarded-for': address } : {}) },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: Number(response.headers.get('retry-after') ?? 0) };
}

/** Runs `work` for every item, `width` at a time, as phones arriving over the minutes before doors open. */
async function inWaves<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  }
  return results;
}

test('300 people behind one address log in, 30 after a typo; a guesser there is stopped; nobody keeps the admin out', async () => {
  // One real account sets the password hash the rest of the audience shares (registering 300 is not the point).
  const first = await verifiedBuyer(system);
  const { password_hash: passwordHash } = await system.identity.db('users').where({ email: first.email }).first();
  const audience = Array.from({ length: CROWD - 1 }, (_, i) => ({
    email: `publico.${i}.${randomInt(1e9)}@example.com.br`,
    password: first.password,
  }));
  await system.identity.db('users').insert(
    audience.map((person, i) => ({
      email: person.email,
      email_verified: true,
      password_hash: passwordHash,
      name: `Participante ${i}`,
    })),
  );
  const crowd = [{ email: first.email, password: first.password }, ...audience];

  // Doors open: 30 mistype once, everyone logs in, all from the one address.
  const typos = await inWaves(crowd.slice(0, MISTYPED), 15, (person) =>
    login({ email: person.email, password: `${person.password}x` }),
  );
  expect(typos.map((answer) => answer.status)).toEqual(Array(MISTYPED).fill(401));
  const logins = await inWaves(crowd, 20, (person) => login(person));
  expect(logins.filter((answer) => answer.status === 200)).toHaveLength(CROWD);

  // Someone at the same address guesses one account's password: stopped within ten tries.
  const target = crowd[100]!;
  let stoppedAt = 0;
  for (let attempt = 1; attempt <= 10 && stoppedAt === 0; attempt++) {
    const answer = await login({ email: target.email, password: `chute-${attempt}` });
    if (answer.status === 429) stoppedAt = attempt;
    else expect(answer.status).toBe(401);
  }
  expect(stoppedAt).toBeGreaterThan(0);
  expect(stoppedAt).toBeLessThanOrEqual(10);
  // The owner gets in from an address that has not been failing (their carrier's), and the rest of the crowd
  // keeps logging in from the guesser's address.
  expect((await login(target, '198.51.100.23')).status).toBe(200);
  expect((await login(crowd[101]!)).status).toBe(200);

  // Someone hammers the admin's e-mail from many other addresses.
  const hammering = await inWaves(
    Array.from({ length: 60 }, (_, i) => i),
    20,
    (i) => login({ email: ADMIN.email, password: `chute-${i}` }, `203.0.113.${(i % 30) + 1}`),
  );
  // Wrong passwords, then waits for the addresses that failed and, once the account is under guessing, no
  // password try at all for the addresses new to it (403: a sign-in link goes to the admin instead).
  expect(hammering.every((answer) => [401, 403, 429].includes(answer.status))).toBe(true);
  expect(hammering.some((answer) => answer.status === 429)).toBe(true);
  expect(hammering.some((answer) => answer.status === 403)).toBe(true);
  // An address that kept failing on the admin waits, but no longer than the growing delay's ceiling...
  const hammerer = await login(ADMIN, '203.0.113.1');
  expect(hammerer.status).toBe(429);
  expect(hammerer.retryAfter).toBeGreaterThan(0);
  expect(hammerer.retryAfter).toBeLessThanOrEqual(15 * 60);
  // ...and the admin, from the venue's address or anywhere that has not been failing, is never refused: with the
  // account under guessing, such an address gets no password try but an e-mailed sign-in link, which lets the
  // admin in at once (a guesser moving to new addresses gets links sent to the admin, never a try).
  const challenged = await fetch(`${system.gatewayUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(challenged.status).toBe(403);
  expect(((await challenged.json()) as { message: string }).message).toContain('enviamos um link de acesso');
  expect((await login({ email: ADMIN.email, password: 'chute-novo' }, '192.0.2.78')).status).toBe(403);
  const mail = await system.mailTo(ADMIN.email, 'Seu link de acesso');
  const token = new RegExp(`${PUBLIC_URL}/entrar-com-link\\?token=([\\w-]+)`).exec(mail.text ?? '')![1]!;
  const opened = await fetch(`${system.gatewayUrl}/api/auth/sign-in-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(opened.status).toBe(200);
  expect(((await opened.json()) as { user: { email: string } }).user.email).toBe(ADMIN.email);
  // Signing in cleared the account's count: the admin's password works again from anywhere clean.
  expect((await login(ADMIN, '192.0.2.77')).status).toBe(200);
  // The crowd at the venue was never held up.
  expect((await login(crowd[102]!)).status).toBe(200);
});

test('a guesser spreading tries over an IPv6 /64 counts as one address: stopped within ten tries', async () => {
  const target = await verifiedBuyer(system);
  let stoppedAt = 0;
  for (let attempt = 1; attempt <= 10 && stoppedAt === 0; attempt++) {
    const answer = await login(
      { email: target.email, password: `chute-${attempt}` },
      `2001:db8:7:9::${attempt.toString(16)}`,
    );
    if (answer.status === 429) stoppedAt = attempt;
    else expect(answer.status).toBe(401);
  }
  expect(stoppedAt).toBeGreaterThan(0);
  expect(stoppedAt).toBeLessThanOrEqual(10);
  // The owner, on another network, gets in.
  expect((await login(target, '2001:db8:8::1')).status).toBe(200);
});
