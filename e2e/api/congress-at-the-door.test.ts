import { waitFor } from '@ticketing/testkit';
import { adminEvent, orderOf, paidTicket, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

const HOUR = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

test('a congress of two days admits a ticket once on each day, and refuses a second reading on either', async () => {
  // Day 1 starts in two hours (its door is open), day 2 the next morning.
  const { eventId, adminToken } = await adminEvent(system, {
    title: 'Congresso Brasileiro de Assuntos Regulatórios',
    date: undefined,
    sessions: [
      { startsAt: at(2 * HOUR), endsAt: at(11 * HOUR), title: 'Dia 1' },
      { startsAt: at(26 * HOUR), endsAt: at(35 * HOUR), title: 'Dia 2' },
    ],
  });
  const { body: event } = await system.call('GET', `/api/events/${eventId}`);
  const [day1, day2] = event.sessions as { id: string; title: string }[];
  expect([day1!.title, day2!.title]).toEqual(['Dia 1', 'Dia 2']);

  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);
  const scan = (sessionId?: string) =>
    system.call('POST', '/api/verify-ticket', {
      token: adminToken,
      body: { qrCodeData: ticket.qrText, eventId, ...(sessionId ? { sessionId } : {}) },
    });

  // The door knows the congress's days once catalog's announcement reached tickets.
  const { body: doorEvents } = await system.call('GET', '/api/door/events', { token: adminToken });
  expect(doorEvents.find((door: { id: string }) => door.id === eventId).sessions).toHaveLength(2);
  const first = await waitFor(async () => {
    const { body } = await scan();
    return body.sessionId === day1!.id && body;
  });
  expect(first).toMatchObject({ success: true, code: 'valid' });
  expect((await scan(day1!.id)).body).toMatchObject({ success: false, code: 'already_used', usedAt: first.usedAt });

  const second = await scan(day2!.id);
  expect(second.body).toMatchObject({ success: true, code: 'valid', sessionId: day2!.id });
  expect((await scan(day2!.id)).body).toMatchObject({ success: false, code: 'already_used' });

  // The door's counts, per session.
  const { body: counts } = await system.call('GET', `/api/door/events/${eventId}/counts?sessionId=${day2!.id}`, {
    token: adminToken,
  });
  expect(counts).toMatchObject({
    sessionId: day2!.id,
    admitted: 1,
    sessions: [
      { sessionId: day1!.id, admitted: 1 },
      { sessionId: day2!.id, admitted: 1 },
    ],
  });

  // The buyer's order shows the ticket used; resetting day 2 leaves it used (day 1 stands).
  await waitFor(async () => (await orderOf(system, buyer, ticket.orderId))?.qrCodeUsed === true);
  const reset = await system.call('POST', `/api/reset-ticket/${ticket.orderId}`, {
    token: adminToken,
    body: { sessionId: day2!.id },
  });
  expect(reset.status).toBe(200);
  expect((await scan(day2!.id)).body).toMatchObject({ success: true, code: 'valid' });
  expect((await orderOf(system, buyer, ticket.orderId)).qrCodeUsed).toBe(true);
});
