import { autoReleaseRound } from '../src/index.ts';
import { eventWithSessions, startCertificates, type Harness } from './support.ts';

let harness: Harness;

beforeAll(async () => {
  // No periodic job: a due release stays unreleased, as when the job keeps failing.
  harness = await startCertificates({ AUTO_RELEASE_POLL_MS: '0' });
});

afterAll(() => harness.stop());

async function scraped(name: string): Promise<number> {
  const text = await (await fetch(`${harness.service.url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name}{`) || entry.startsWith(`${name} `));
  if (!line) throw new Error(`${name} is not on /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

test('an automatic release that is due and has not happened is counted until it is released', async () => {
  // Both ended 68 hours ago; one is released 24 hours after its end, the other 100 hours after.
  const due = eventWithSessions({ sessions: 1, hours: 4, startedHoursAgo: 72 });
  const later = eventWithSessions({ sessions: 1, hours: 4, startedHoursAgo: 72 });
  for (const [event, autoReleaseHours] of [
    [due, 24],
    [later, 100],
  ] as const) {
    await harness.emit('event.changed', event);
    const saved = await harness.api(`/api/events/${event.eventId}/certificate`, {
      method: 'PUT',
      token: harness.adminToken,
      body: { enabled: true, autoReleaseHours },
    });
    expect(saved.status).toBe(200);
  }
  expect(await scraped('certificates_auto_release_overdue')).toBe(1);

  const { db, outbox, logger } = harness.service;
  expect(await autoReleaseRound({ db, outbox, logger, siteUrl: 'https://ingressos.example.com.br' })).toBe(1);
  expect(await scraped('certificates_auto_release_overdue')).toBe(0);
});
