import type { FiscalSettingsAnswer } from '@ticketing/proto';
import { seedFiscalSettings } from '../../../scripts/seed.ts';
import { startPayments, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments();
});
afterAll(() => payments.stop());

test('the local stack issues notas fiscais from the start, and an administrator’s settings are never overwritten', async () => {
  expect(await seedFiscalSettings(payments.service.db)).toBe(true);
  expect(await seedFiscalSettings(payments.service.db)).toBe(false);
  const read = await payments.request('GET', '/api/payments/fiscal-settings', {
    headers: { authorization: `Bearer ${payments.adminToken}` },
  });
  expect(((await read.json()) as FiscalSettingsAnswer).settings).toMatchObject({
    enabled: true,
    municipalServiceCode: '08.02',
    issRate: 2,
    deductions: '0.00',
    retainIss: false,
  });
});
