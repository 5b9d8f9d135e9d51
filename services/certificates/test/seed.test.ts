import { seedCertificates } from '../../../scripts/seed.ts';
import { seedEvents } from '../../../scripts/seed/events.ts';
import { eventWithSessions, startCertificates, type Harness } from './support.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startCertificates();
});
afterAll(() => harness.stop());

test('the seeded event that promises a certificate of participation has certificates on, once', async () => {
  const promising = seedEvents.filter((seed) => /certificado de participação/i.test(seed.description));
  expect(promising.map((seed) => Boolean(seed.certificate))).toEqual([true]);
  const event = { ...eventWithSessions(), title: promising[0]!.title };
  await harness.emit('event.changed', event);
  // The catalog's events table and this service's both name events by id and title.
  const { db } = harness.service;
  expect(await seedCertificates(db, db)).toBe(1);
  expect(await seedCertificates(db, db)).toBe(0);
  const settings = await harness.api(`/api/events/${event.eventId}/certificate`, { token: harness.adminToken });
  expect(await settings.json()).toMatchObject({
    enabled: true,
    signerName: 'Dra. Helena Prado',
    signerRole: 'Coordenadora científica',
    autoReleaseHours: 24,
  });
});
