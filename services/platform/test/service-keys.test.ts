import { PRODUCERS, envelopeSigningBytes } from '@ticketing/proto';
import { loadServiceConfig } from '../src/index.ts';
import { developmentKeyRing, generateKeyRing, isDevelopmentKey, signBytes, verifyBytes } from '../src/service-keys.ts';

const definition = { name: 'catalog' };
const ring = generateKeyRing(['catalog', 'orders']);
const load = (env: Record<string, string>) => () => loadServiceConfig(definition, env);

test("a service boots only with its own private key and everyone's public keys, and says which is wrong", () => {
  expect(load({ NODE_ENV: 'production' })).toThrow(/SERVICE_KEY: must be set in production/);
  expect(load({ SERVICE_KEY: ring.settings('catalog').SERVICE_KEY })).toThrow(/SERVICE_PUBLIC_KEYS: every/);
  expect(load({ ...ring.settings('catalog'), SERVICE_KEY: 'not-a-key' })).toThrow(
    /SERVICE_KEY: must be an Ed25519 key/,
  );
  expect(load({ ...ring.settings('catalog'), SERVICE_PUBLIC_KEYS: 'catalog' })).toThrow(
    /SERVICE_PUBLIC_KEYS: must list name:key pairs/,
  );
  // Orders' private key with a list that says catalog's is another: the key is not catalog's.
  expect(load({ ...ring.settings('catalog'), SERVICE_KEY: ring.settings('orders').SERVICE_KEY })).toThrow(
    /SERVICE_PUBLIC_KEYS: gives catalog a key that is not the public half of SERVICE_KEY/,
  );
  const { keys } = load(ring.settings('catalog'))();
  expect(keys.name).toBe('catalog');
  expect(keys.publicKeyOf('orders')).toBeDefined();
  expect(keys.publicKeyOf('mail')).toBeUndefined();
});

test('started by hand outside production with no keys, a service signs with the development key production refuses', () => {
  const { keys } = load({})();
  const development = developmentKeyRing(PRODUCERS);
  const signed = signBytes(keys, new TextEncoder().encode('x'));
  expect(verifyBytes(development.keys('orders'), 'catalog', new TextEncoder().encode('x'), signed)).toBe(true);
  expect(isDevelopmentKey(development.privateKeys.catalog!)).toBe(true);
});

test('an envelope signature holds whatever order a store gives its fields, and breaks with any change', () => {
  const orders = ring.keys('orders');
  const catalog = ring.keys('catalog');
  const envelope = { id: 'e1', type: 'order.paid', producer: 'orders', payload: { orderId: 'o1', amount: '10.00' } };
  const signature = signBytes(orders, envelopeSigningBytes(envelope));
  const reordered = { payload: { amount: '10.00', orderId: 'o1' }, producer: 'orders', type: 'order.paid', id: 'e1' };
  expect(verifyBytes(catalog, 'orders', envelopeSigningBytes({ ...reordered, signature }), signature)).toBe(true);
  const changed = { ...envelope, payload: { ...envelope.payload, amount: '0.01' } };
  expect(verifyBytes(catalog, 'orders', envelopeSigningBytes(changed), signature)).toBe(false);
  expect(verifyBytes(catalog, 'catalog', envelopeSigningBytes(envelope), signature)).toBe(false);
  expect(verifyBytes(catalog, 'mail', envelopeSigningBytes(envelope), signature)).toBe(false);
});
