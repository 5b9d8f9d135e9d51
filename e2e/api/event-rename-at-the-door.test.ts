import { waitFor } from '@ticketing/testkit';
import { adminEvent, paidTicket, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

test('an event renamed after its tickets were sold: the door names it by its new title, online as offline', async () => {
  const { eventId, adminToken } = await adminEvent(system, {});
  const { eventId: otherDoor } = await adminEvent(system, { title: 'Simpósio de Assuntos Regulatórios' });
  const ticket = await paidTicket(system, await verifiedBuyer(system), eventId);
  const scan = (doorEventId: string) =>
    system.call('POST', '/api/verify-ticket', {
      token: adminToken,
      body: { qrCodeData: ticket.qrText, eventId: doorEventId },
    });

  const renamed = await system.call('PATCH', `/api/events/${eventId}`, {
    token: adminToken,
    body: { title: 'Workshop de Farmácia Clínica — Turma 2' },
  });
  expect(renamed.status).toBe(200);

  // At another event's door (nothing admitted), until tickets has heard of the rename.
  const refused = await waitFor(async () => {
    const { body } = await scan(otherDoor);
    return body.message === 'Ingresso de outro evento: Workshop de Farmácia Clínica — Turma 2' && body;
  });
  expect(refused).toMatchObject({ success: false, code: 'wrong_event' });
  const admitted = await scan(eventId);
  expect(admitted.body).toMatchObject({
    success: true,
    code: 'valid',
    eventTitle: 'Workshop de Farmácia Clínica — Turma 2',
  });
  // What a phone keeps for the door offline says the same.
  const { body: doorEvents } = await system.call('GET', '/api/door/events', { token: adminToken });
  expect(doorEvents.find((event: { id: string }) => event.id === eventId)).toMatchObject({
    title: 'Workshop de Farmácia Clínica — Turma 2',
  });
});
