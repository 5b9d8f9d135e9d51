import { randomInt } from 'node:crypto';
import { waitFor } from '@ticketing/testkit';
import { makeCpf } from '@ticketing/testkit';
import { PUBLIC_URL, staffMember, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

/** A door staff address of the configuration that nobody has registered yet. */
const LISTED_DOOR_EMAIL = `portaria.${randomInt(1e9)}@example.com.br`;

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem({ identityEnv: { DOOR_STAFF_EMAILS: LISTED_DOOR_EMAIL } });
});
afterAll(() => system.stop());

const newPerson = () => ({
  name: 'Ana Beatriz Souza',
  cpf: makeCpf(),
  birthDate: '14/03/1990',
  email: `ana.${randomInt(1e9)}@example.com.br`,
  phone: '(31) 98765-4321',
  address: 'Rua da Bahia, 1200 — Centro, Belo Horizonte — MG',
  password: 'senha-forte-1',
});

const codeIn = (text: string | null) => /\b(\d{6})\b/.exec(text ?? '')![1]!;

test('a visitor registers, verifies the e-mailed code, edits the profile, changes and resets the password, and deletes the account', async () => {
  const person = newPerson();
  const { call, mailTo } = system;

  // Register → the code arrives by e-mail → verify → the account is verified.
  const registered = await call('POST', '/api/auth/register', { body: person });
  expect(registered).toEqual({
    status: 202,
    body: {
      email: person.email,
      message:
        'Se os dados estiverem disponíveis, você receberá um código de verificação no e-mail informado. Se já tiver conta, enviamos as instruções para o e-mail dela.',
    },
  });
  const codeMail = await mailTo(person.email, 'Seu código de verificação');
  const unverified = await call('POST', '/api/auth/login', {
    body: { email: person.email, password: person.password },
  });
  expect(unverified.status).toBe(200);
  expect(unverified.body.user.emailVerified).toBe(false);
  const verified = await call('POST', '/api/auth/verify-code', {
    body: { email: person.email, code: codeIn(codeMail.text) },
  });
  expect(verified.status).toBe(200);
  const me = await call('GET', '/api/auth/me', { token: verified.body.token });
  expect(me.body).toMatchObject({
    email: person.email,
    name: person.name,
    emailVerified: true,
    isAdmin: false,
    cpf: person.cpf,
  });

  // Login; a sensitive profile change needs the current password.
  const login = await call('POST', '/api/auth/login', { body: { email: person.email, password: person.password } });
  expect(login.body.user).toMatchObject({ email: person.email, emailVerified: true });
  let token: string = login.body.token;
  expect(await call('PUT', '/api/profile', { token, body: { name: 'Ana B. Souza' } })).toEqual({
    status: 403,
    body: { message: 'Senha necessária' },
  });
  const renamed = await call('PUT', '/api/profile', {
    token,
    body: { name: 'Ana B. Souza', currentPassword: person.password },
  });
  expect(renamed.status).toBe(200);
  expect((await call('GET', '/api/auth/me', { token })).body.name).toBe('Ana B. Souza');

  // Change password: this browser gets a fresh token, every older one stops working.
  const changed = await call('PUT', '/api/profile/password', {
    token,
    body: { currentPassword: person.password, newPassword: 'outra-senha-2' },
  });
  expect(changed.status).toBe(200);
  expect((await call('GET', '/api/auth/me', { token })).status).toBe(401);
  token = changed.body.token;
  expect((await call('GET', '/api/auth/me', { token })).status).toBe(200);

  // Forgot → the e-mailed link resets the password once.
  const forgot = await call('POST', '/api/auth/forgot-password', { body: { email: person.email } });
  expect(forgot).toEqual({
    status: 200,
    body: { message: 'Se sua conta existir, enviaremos um link para redefinir sua senha.' },
  });
  const resetMail = await mailTo(person.email, 'Redefinição de senha');
  const link = new RegExp(`${PUBLIC_URL}/reset-password\\?token=([\\w-]+)`).exec(resetMail.text ?? '')!;
  expect(resetMail.html).toContain(link[0]);
  const reset = { token: link[1], newPassword: 'nova-senha-3', confirmPassword: 'nova-senha-3' };
  expect((await call('POST', '/api/auth/reset-password', { body: reset })).status).toBe(200);
  expect((await call('POST', '/api/auth/reset-password', { body: reset })).status).toBe(400);
  expect((await call('GET', '/api/auth/me', { token })).status).toBe(401);
  const afterReset = await call('POST', '/api/auth/login', { body: { email: person.email, password: 'nova-senha-3' } });
  expect(afterReset.status).toBe(200);
  token = afterReset.body.token;

  // Delete: the password is required, then the token and the login stop working.
  expect((await call('DELETE', '/api/profile', { token, body: { password: 'errada' } })).status).toBe(401);
  expect((await call('DELETE', '/api/profile', { token, body: { password: 'nova-senha-3' } })).status).toBe(200);
  expect((await call('GET', '/api/auth/me', { token })).status).toBe(401);
  expect(
    (await call('POST', '/api/auth/login', { body: { email: person.email, password: 'nova-senha-3' } })).body,
  ).toEqual({ message: 'Email ou senha inválidos' });

  // Every e-mail went through the queue once; the deleted user's personal content is gone from it.
  const rows = await waitFor(async () => {
    const found = await system.mail!.db('email_queue').select('status', 'to');
    return found.length === 2 && found.every((row) => row.status === 'sent' && !row.to.includes(person.email)) && found;
  });
  expect(rows).toHaveLength(2);
});

test("renewed tokens die with 'Sair' at every service; a superseded token renews nothing; a role taken away counts nowhere", async () => {
  const { call } = system;
  const buyer = await verifiedBuyer(system);
  const login = await call('POST', '/api/auth/login', { body: { email: buyer.email, password: buyer.password } });
  const chain = [login.body.token as string];
  for (let renewal = 0; renewal < 2; renewal++) {
    const renewed = await call('POST', '/api/auth/renew', { token: chain.at(-1) });
    expect(renewed.status).toBe(200);
    chain.push(renewed.body.token);
  }
  /** What identity (/api/auth/me) and orders (/api/orders) answer each token of the chain. */
  const answers = async () => {
    const statuses = [];
    for (const token of chain) {
      statuses.push([
        (await call('GET', '/api/auth/me', { token })).status,
        (await call('GET', '/api/orders', { token })).status,
      ]);
    }
    return statuses;
  };
  expect(await answers()).toEqual([
    [401, 401],
    [401, 401],
    [200, 200],
  ]);
  expect((await call('POST', '/api/auth/renew', { token: chain[0] })).status).toBe(401);

  expect((await call('POST', '/api/auth/logout', { token: chain.at(-1) })).status).toBe(204);
  expect(await answers()).toEqual([
    [401, 401],
    [401, 401],
    [401, 401],
  ]);
  // The buyer's other session (the verification's) goes on.
  expect((await call('GET', '/api/orders', { token: buyer.token })).status).toBe(200);

  const admin = await call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const staffer = await staffMember(system, admin.body.token, ['doorStaff']);
  expect((await call('GET', '/api/door/events', { token: staffer.token })).status).toBe(200);
  const taken = await call('PUT', '/api/admin/users/roles', {
    token: admin.body.token,
    body: { email: staffer.email, roles: [] },
  });
  expect(taken.status).toBe(200);
  // The token still names the role: the door refuses it at once all the same; the session itself goes on.
  expect((await call('GET', '/api/door/events', { token: staffer.token })).status).toBe(403);
  expect((await call('GET', '/api/auth/me', { token: staffer.token })).body.roles).toEqual([]);
});

test('the seeded administrator logs in, and in development a verified user can be made an administrator', async () => {
  const { call } = system;
  const admin = await call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  expect(admin.body.user).toMatchObject({ isAdmin: true, emailVerified: true });
  expect((await call('GET', '/api/auth/me', { token: admin.body.token })).body.canManageCourtesies).toBe(true);

  const person = await verifiedBuyer(system);
  const user = await call('POST', '/api/auth/login', { body: { email: person.email, password: person.password } });
  const made = await call('POST', `/api/make-admin/${user.body.user.id}`, { token: user.body.token });
  expect(made).toEqual({ status: 200, body: { user: { id: user.body.user.id, name: person.name, isAdmin: true } } });
  const again = await call('POST', '/api/auth/login', { body: { email: person.email, password: person.password } });
  expect(again.body.user.isAdmin).toBe(true);
});

test('a listed door address registered but not verified gets no role, in its token or /api/auth/me, until verified', async () => {
  const { call, mailTo } = system;
  const claimer = { ...newPerson(), email: LISTED_DOOR_EMAIL };
  expect((await call('POST', '/api/auth/register', { body: claimer })).status).toBe(202);
  const login = await call('POST', '/api/auth/login', { body: { email: claimer.email, password: claimer.password } });
  expect(login.status).toBe(200);
  const roles = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString()).roles;
  expect(roles).toEqual([]);
  expect((await call('GET', '/api/auth/me', { token: login.body.token })).body).toMatchObject({ roles: [] });
  expect((await call('GET', '/api/door/events', { token: login.body.token })).status).toBe(403);

  // The owner of the mailbox proves it: the role the configuration lists comes with the proof.
  const code = codeIn((await mailTo(claimer.email, 'Seu código de verificação')).text);
  const verified = await call('POST', '/api/auth/verify-code', { body: { email: claimer.email, code } });
  expect((await call('GET', '/api/auth/me', { token: verified.body.token })).body).toMatchObject({
    roles: ['doorStaff'],
  });
});

test('registering with a taken e-mail or CPF answers as any registration; the owner learns which by e-mail', async () => {
  const { call, mailTo } = system;
  const owner = await verifiedBuyer(system);
  const answers = [
    await call('POST', '/api/auth/register', { body: { ...newPerson(), email: owner.email } }),
    await call('POST', '/api/auth/register', { body: { ...newPerson(), cpf: owner.cpf } }),
    await call('POST', '/api/auth/register', { body: newPerson() }),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202]);
  expect(new Set(answers.map((answer) => answer.body.message)).size).toBe(1);
  const notice = await mailTo(owner.email, 'Tentativa de cadastro com os seus dados');
  expect(notice.text).toContain('com o seu e-mail, que já pertence à sua conta');
});
