import { ADMIN_EMAIL, ADMIN_PASSWORD, claimsOf, startIdentity, startNeighbour, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity({
    env: { DOOR_STAFF_EMAILS: 'portaria@educacaofarma.com.br, Recepcao@Exemplo.com.br' },
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

test('an administrator grants and takes back roles; taking one away ends the sessions that carried it', async () => {
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
    expect((await neighbour.whoami(token)).status).toBe(401);
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
