import { randomInt } from 'node:crypto';
import { waitFor } from '@ticketing/platform/testing';
import { makeCpf } from '@ticketing/platform/testing';
import { PUBLIC_URL, startSystem } from './support.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
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
  expect(registered).toEqual({ status: 201, body: { email: person.email } });
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

test('the seeded administrator logs in, and in development a user can be made an administrator', async () => {
  const person = newPerson();
  const { call } = system;
  const admin = await call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  expect(admin.body.user).toMatchObject({ isAdmin: true, emailVerified: true });
  expect((await call('GET', '/api/auth/me', { token: admin.body.token })).body.canManageCourtesies).toBe(true);

  await call('POST', '/api/auth/register', { body: person });
  const user = await call('POST', '/api/auth/login', { body: { email: person.email, password: person.password } });
  const made = await call('POST', `/api/make-admin/${user.body.user.id}`, { token: user.body.token });
  expect(made).toEqual({ status: 200, body: { user: { id: user.body.user.id, name: person.name, isAdmin: true } } });
  const again = await call('POST', '/api/auth/login', { body: { email: person.email, password: person.password } });
  expect(again.body.user.isAdmin).toBe(true);
});
