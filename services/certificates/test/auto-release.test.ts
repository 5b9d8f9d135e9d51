import type { AdminCertificateView } from '@ticketing/proto';
import { checkIn, eventWithSessions, startCertificates, ticketOf, waitFor, type Harness } from './support.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startCertificates({ AUTO_RELEASE_POLL_MS: '20' });
  await harness.startReplica();
});

afterAll(() => harness.stop());

test('the automatic release runs once, on one replica, when its hours after the end have passed', async () => {
  // Ended 68 hours ago (a single 4-hour session 72 hours ago); one released 24 hours after, one not yet due.
  const due = eventWithSessions({ sessions: 1, hours: 4, startedHoursAgo: 72 });
  const later = eventWithSessions({ sessions: 1, hours: 4, startedHoursAgo: 72 });
  for (const event of [due, later]) {
    await harness.emit('event.changed', event);
    for (const name of ['Lívia Castro', 'Marcos Teixeira', 'Nádia Rocha']) {
      const ticket = ticketOf(event, name);
      await harness.emit('ticket.issued', ticket);
      await harness.emit('ticket.checked-in', checkIn(ticket, event.sessions![0]!.id));
    }
  }
  for (const [event, autoReleaseHours] of [
    [due, 24],
    [later, 100],
  ] as const) {
    const saved = await harness.api(`/api/events/${event.eventId}/certificate`, {
      method: 'PUT',
      token: harness.adminToken,
      body: { enabled: true, autoReleaseHours },
    });
    expect(saved.status).toBe(200);
  }

  const db = harness.service.db;
  await waitFor(async () => (await db('settings').where({ event_id: due.eventId }).first()).auto_released_at !== null);
  // Both replicas poll; the claim commits with the certificates: one certificate and one e-mail per holder.
  const rounds = await db('settings').where({ event_id: later.eventId }).first();
  expect(rounds.auto_released_at).toBeNull();
  const list = (await (
    await harness.api(`/api/events/${due.eventId}/certificates`, { token: harness.adminToken })
  ).json()) as AdminCertificateView[];
  expect(list.map((certificate) => certificate.holderName).sort()).toEqual([
    'Lívia Castro',
    'Marcos Teixeira',
    'Nádia Rocha',
  ]);
  const emails = (await harness.issuedEvents()).filter((issued) => issued.eventId === due.eventId);
  expect(emails).toHaveLength(3);
  expect(await db('certificates').where({ event_id: later.eventId })).toEqual([]);
});
