import { randomUUID } from 'node:crypto';
import { createServiceAuth, generateKeyRing, type ServiceKeys } from '@ticketing/platform';
import { testKeyRing } from '@ticketing/testkit';
import { startIdentity, type Identity } from './support.ts';

let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const lookUp = async (id: string) => {
  const response = await identity.request('GET', `/internal/users/${id}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

test('other services look up a buyer: name, e-mail, CPF, phone and whether the e-mail is verified', async () => {
  const unverified = await identity.registered({ name: 'Carla Nunes' });
  expect(await lookUp(unverified.id)).toEqual({
    status: 200,
    body: {
      id: unverified.id,
      name: 'Carla Nunes',
      email: unverified.email,
      cpf: unverified.cpf,
      phone: expect.stringMatching(/^\(\d{2}\) \d{4,5}-\d{4}$/),
      emailVerified: false,
    },
  });
  const verified = await identity.verified();
  expect((await lookUp(verified.id)).body.emailVerified).toBe(true);
});

test('unknown, malformed and deleted accounts are 404', async () => {
  expect(await lookUp(randomUUID())).toEqual({ status: 404, body: { message: 'Usuário não encontrado' } });
  expect((await lookUp('not-a-uuid')).status).toBe(404);
  const account = await identity.verified();
  const deleted = await identity.request('DELETE', '/api/profile', {
    token: account.token,
    body: { password: account.password },
  });
  expect(deleted.status).toBe(200);
  expect((await lookUp(account.id)).status).toBe(404);
});

test("a buyer's data goes to orders alone: a token naming orders must be signed with orders' own key", async () => {
  const buyer = await identity.registered();
  const lookUpAs = async (keys: ServiceKeys) =>
    (
      await identity.request('GET', `/internal/users/${buyer.id}`, {
        headers: { authorization: `Bearer ${await createServiceAuth(keys).token('identity')}` },
      })
    ).status;
  // Mail holds its own key only: claiming to be orders with it gets nothing.
  expect(await lookUpAs({ ...testKeyRing.keys('mail'), name: 'orders' })).toBe(401);
  // A service identity was never told about, and an `orders` key identity does not know.
  expect(await lookUpAs(generateKeyRing(['billing']).keys('billing'))).toBe(401);
  expect(await lookUpAs(generateKeyRing(['orders']).keys('orders'))).toBe(401);
  // Mail as itself is known, but may not read buyers.
  expect(await lookUpAs(testKeyRing.keys('mail'))).toBe(403);
  expect(await lookUpAs(testKeyRing.keys('orders'))).toBe(200);
});
