import { randomUUID } from 'node:crypto';
import { claimsOf, startIdentity, type Identity } from './support.ts';

let production: Identity;
let development: Identity;

beforeAll(async () => {
  [production, development] = await Promise.all([startIdentity(), startIdentity({ env: { DEV_TOOLS: 'true' } })]);
});
afterAll(async () => {
  await production.stop();
  await development.stop();
});

const makeAdmin = (identity: Identity, userId: string, token?: string) =>
  identity.request('POST', `/api/make-admin/${userId}`, { token });

test('without development tools the route does not exist (404) and nobody changes', async () => {
  const account = await production.verified();
  const response = await makeAdmin(production, account.id, account.token);
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ message: 'Rota não encontrada' });
  expect((await makeAdmin(production, account.id)).status).toBe(404);
  expect(await production.userRow(account.id)).toMatchObject({ is_admin: false });
});

test('with development tools a logged-in user makes an account administrator, effective from the next login', async () => {
  const target = await development.verified({ name: 'Joana Prado' });
  const caller = await development.verified();
  const response = await makeAdmin(development, target.id, caller.token);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ user: { id: target.id, name: 'Joana Prado', isAdmin: true } });
  expect(await development.userRow(target.id)).toMatchObject({ is_admin: true });
  expect(development.lines('user made admin')).toContainEqual(
    expect.objectContaining({ userId: target.id, by: caller.id }),
  );

  // The role shows in the account at once, and in the token from the next login.
  expect(await (await development.me(target.token)).json()).toMatchObject({ isAdmin: true });
  expect(claimsOf(target.token).roles).toEqual([]);
  const { token, user } = await development.login(target.email, target.password);
  expect(claimsOf(token).roles).toEqual(['admin']);
  expect(user.isAdmin).toBe(true);
});

test('anonymous callers get 401; unknown or malformed ids are 404 "Usuário não encontrado"', async () => {
  const account = await development.verified();
  expect((await makeAdmin(development, account.id)).status).toBe(401);
  for (const id of [randomUUID(), 'nao-e-um-id', "1' or '1'='1"]) {
    const response = await makeAdmin(development, encodeURIComponent(id), account.token);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Usuário não encontrado' });
  }
  expect(await development.userRow(account.id)).toMatchObject({ is_admin: false });
});
