import { identityConfig } from '@ticketing/identity';
import { paymentsConfig } from '@ticketing/payments';
import { estimatedSecretBits } from '@ticketing/platform';
import { stackSettings } from '../lib/stack-settings.ts';

test('npm start listens on this machine only unless HOST names every interface', () => {
  expect(stackSettings({}).HOST).toBe('127.0.0.1');
  expect(stackSettings({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  expect(stackSettings({ HOST: '::' }).HOST).toBe('::');
  // The processes reach each other at 127.0.0.1: an address that would not answer there is refused at once.
  for (const host of ['192.168.0.10', '::1', 'localhost', '']) {
    expect(() => stackSettings({ HOST: host })).toThrow(/^HOST: npm start listens on this machine/);
  }
});

test("npm start's secrets are new at every run, never the services' published development defaults", () => {
  const runs = [stackSettings({}), stackSettings({})];
  for (const name of ['ASAAS_WEBHOOK_TOKEN', 'VERIFICATION_SECRET'] as const) {
    expect(runs[0]![name]).not.toBe(runs[1]![name]);
    expect(estimatedSecretBits(runs[0]![name])).toBeGreaterThanOrEqual(128);
  }
  expect(runs[0]!.ASAAS_WEBHOOK_TOKEN).not.toBe(paymentsConfig.ASAAS_WEBHOOK_TOKEN.parse(undefined));
  expect(runs[0]!.VERIFICATION_SECRET).not.toBe(identityConfig.VERIFICATION_SECRET.parse(undefined));
  // A value given to npm start is used as given (a real provider's webhook token, for one).
  expect(stackSettings({ ASAAS_WEBHOOK_TOKEN: 'token-of-the-real-account' }).ASAAS_WEBHOOK_TOKEN).toBe(
    'token-of-the-real-account',
  );
});
