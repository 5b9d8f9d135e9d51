import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  claimsOf,
  makeEmail,
  startIdentity,
  startNeighbour,
  type Account,
  type Identity,
} from './support.ts';

let identity: Identity;
/** Listed door addresses nobody has registered yet (unique to this run). */
const LISTED = makeEmail('porta');
const LISTED_LATER = makeEmail('porta-depois');

beforeAll(async () => {
  identity = await startIdentity({
    env: {
      DOOR_STAFF_EMAILS: `portaria@educacaofarma.com.br, Recepcao@Exemplo.com.br, ${LISTED}, ${LISTED_LATER}`,
    },
  });
});
afterAll(() => identity.stop());

const grant = (token: string, body: unknown) => identity.request('PUT', '/api/admin/users/roles', { token, body });

test('tokens and the current user carry the roles: the configured administrator manages courtesies', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  expect(admin.user).toMatchObject({ isAdmin: true, canManageCourtesies: true, roles: ['admin', 'courtesyManager'] });
  expect(claimsOf(admin.token)).toMatchObject({ roles: ['admin', 'courtesyManager'] });
  expect(claimsOf(admin.token)).not.toHaveProperty('adm');

  const listed = await identity.verified({ email: 'recepcao@exemplo.com.br' });
  expect(claimsOf((await identity.login(listed.email, listed.password)).token)).toMatchObject({ roles: ['doorStaff'] });
});

test('an administrator grants and takes back roles; a role taken away no longer counts for any token', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const person = await identity.verified();
  const granted = await grant(admin.token, {
    email: person.email.toUpperCase(),
    roles: ['doorStaff', 'courtesyManager'],
  });
  expect(granted.status).toBe(200);
  expect(await granted.json()).toMatchObject({ id: person.id, roles: ['courtesyManager', 'doorStaff'] });
  expect(identity.lines('roles granted')).toContainEqual(expect.objectContaining({ userId: person.id }));
  // New roles show from the next login; the session in hand goes on.
  expect((await identity.me(person.token)).status).toBe(200);
  const { token, user } = await identity.login(person.email, person.password);
  expect(user).toMatchObject({ isAdmin: false, canManageCourtesies: true, roles: ['courtesyManager', 'doorStaff'] });

  const neighbour = await startNeighbour(identity);
  try {
    expect((await neighbour.whoami(token)).status).toBe(200);
    expect((await grant(admin.token, { email: person.email, roles: ['doorStaff'] })).status).toBe(200);
    // The token still names the role; every service checks it against the account's roles now.
    const whoami = await neighbour.whoami(token);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ id: person.id, roles: ['doorStaff'] });
    const again = await identity.login(person.email, person.password);
    expect(claimsOf(again.token)).toMatchObject({ roles: ['doorStaff'] });
  } finally {
    await neighbour.service.stop();
  }
});

test('only an administrator grants roles, only the grantable ones, only to an account that exists', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const person = await identity.verified();
  const forbidden = await grant(person.token, { email: person.email, roles: ['courtesyManager'] });
  expect(forbidden.status).toBe(403);
  expect(await forbidden.json()).toEqual({ message: 'Acesso restrito a administradores' });
  expect((await grant('', { email: person.email, roles: [] })).status).toBe(401);

  const cases: [unknown, number, string][] = [
    [{ email: person.email, roles: ['admin'] }, 400, 'Papel inválido'],
    [{ email: person.email, roles: 'doorStaff' }, 400, 'Informe a lista de papéis'],
    [{ email: 'nao-e-email', roles: [] }, 400, 'Email inválido'],
    [{ email: 'ninguem@exemplo.com.br', roles: ['doorStaff'] }, 404, 'Usuário não encontrado'],
  ];
  for (const [body, status, message] of cases) {
    const response = await grant(admin.token, body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status,
      answer: { message },
    });
  }
  expect(await identity.userRow(person.id)).toMatchObject({ granted_roles: [] });
});

const rolesSeenBy = async (token: string) => ({
  token: claimsOf(token).roles,
  me: ((await (await identity.me(token)).json()) as { roles: string[] }).roles,
});

test('a listed address holds no role until its owner verifies it: not in the token, not in /api/auth/me', async () => {
  const listed = await identity.registered({ email: LISTED });
  expect(await rolesSeenBy(listed.token)).toEqual({ token: [], me: [] });
  expect(await rolesSeenBy((await identity.login(listed.email, listed.password)).token)).toEqual({ token: [], me: [] });

  const verified = await identity.request('POST', '/api/auth/verify-code', {
    body: { email: listed.email, code: await identity.lastCode(listed.id) },
  });
  const { token } = (await verified.json()) as { token: string };
  expect(await rolesSeenBy(token)).toEqual({ token: ['doorStaff'], me: ['doorStaff'] });
});

test('an administrator grants roles only to a verified account; taking them away always works', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const unverified = await identity.registered();
  const refused = await grant(admin.token, { email: unverified.email, roles: ['doorStaff'] });
  expect({ status: refused.status, body: await refused.json() }).toEqual({
    status: 422,
    body: { message: 'Papéis só podem ser concedidos a contas com e-mail verificado' },
  });
  expect(await identity.userRow(unverified.id)).toMatchObject({ granted_roles: [] });
  expect((await grant(admin.token, { email: unverified.email, roles: [] })).status).toBe(200);
});

const changeEmail = (account: Pick<Account, 'token' | 'password'>, email: string) =>
  identity.request('PUT', '/api/profile', { token: account.token, body: { email, currentPassword: account.password } });

test('changing the e-mail drops every role, administrator included, and ends the sessions that carried them', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const person = await identity.verified();
  expect((await grant(admin.token, { email: person.email, roles: ['doorStaff', 'courtesyManager'] })).status).toBe(200);
  await identity.service.db('users').where({ id: person.id }).update({ is_admin: true });
  const before = await identity.login(person.email, person.password);
  expect(claimsOf(before.token).roles).toEqual(['admin', 'courtesyManager', 'doorStaff']);

  const newEmail = makeEmail('trocou');
  const changed = await changeEmail({ token: before.token, password: person.password }, newEmail);
  expect(changed.status).toBe(200);
  expect(await changed.json()).toMatchObject({ email: newEmail, emailVerified: false, isAdmin: false, roles: [] });
  expect(await identity.userRow(person.id)).toMatchObject({ is_admin: false, granted_roles: [] });
  expect((await identity.me(before.token)).status).toBe(401);

  // Proving the new address brings nothing back: another administrator grants again.
  const verified = await identity.request('POST', '/api/auth/verify-code', {
    body: { email: newEmail, code: await identity.lastCode(person.id) },
  });
  const { token } = (await verified.json()) as { token: string };
  expect(await rolesSeenBy(token)).toEqual({ token: [], me: [] });
});

test('changing the e-mail to a listed address brings the role only once the new address is verified', async () => {
  const person = await identity.verified();
  expect((await changeEmail(person, LISTED_LATER)).status).toBe(200);
  const unproved = await identity.login(LISTED_LATER, person.password);
  expect(await rolesSeenBy(unproved.token)).toEqual({ token: [], me: [] });
  const verified = await identity.request('POST', '/api/auth/verify-code', {
    body: { email: LISTED_LATER, code: await identity.lastCode(person.id) },
  });
  const { token } = (await verified.json()) as { token: string };
  expect(await rolesSeenBy(token)).toEqual({ token: ['doorStaff'], me: ['doorStaff'] });
});
