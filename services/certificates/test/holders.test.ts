import { randomUUID } from 'node:crypto';
import type { AdminCertificateView, CertificateView, EventPayload } from '@ticketing/proto';
import { checkIn, eventWithSessions, startCertificates, ticketOf, type Harness } from './support.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startCertificates();
});

afterAll(() => harness.stop());

const PROFESSIONAL = { id: randomUUID(), name: 'Profissional', requiresDocument: false };

/** A ticket of the buyer's order held by `holder`, as tickets announces one of an order's lines. */
function lineOf(
  order: EventPayload<'ticket.issued'>,
  itemIndex: number,
  holder: { name: string; email: string },
): EventPayload<'ticket.issued'> {
  return {
    ...order,
    ticketId: randomUUID(),
    itemIndex,
    holder: { ...holder, cpf: null },
    ticketType: PROFESSIONAL,
  };
}

const certificatesOf = async (eventId: string) =>
  (await (
    await harness.api(`/api/events/${eventId}/certificates`, { token: harness.adminToken })
  ).json()) as AdminCertificateView[];

test('each ticket of an order is certified to its holder, who reads it with their own account; a new holder takes it over', async () => {
  const event = eventWithSessions({ sessions: 1, hours: 4 });
  await harness.emit('event.changed', event);
  const order = ticketOf(event, 'Marina Queiroz');
  const own = lineOf(order, 0, order.buyer);
  const colleague = { name: 'Ana Souza Lima', email: `ana.${randomUUID().slice(0, 6)}@example.com.br` };
  const colleagues = lineOf(order, 1, colleague);
  const passed = lineOf(order, 2, {
    name: 'Caio Mendes Prado',
    email: `caio.${randomUUID().slice(0, 6)}@example.com.br`,
  });
  for (const ticket of [own, colleagues, passed]) await harness.emit('ticket.issued', ticket);
  // The third ticket is handed to a new holder before the event: issued again, same ticket.
  const newcomer = { name: 'Davi Rezende Costa', email: `davi.${randomUUID().slice(0, 6)}@example.com.br` };
  await harness.emit('ticket.issued', { ...passed, holder: { ...newcomer, cpf: null }, qrText: 'v2.test' });
  for (const ticket of [own, colleagues, passed]) {
    await harness.emit('ticket.checked-in', checkIn(ticket, event.sessions![0]!.id));
  }
  await harness.api(`/api/events/${event.eventId}/certificate`, {
    method: 'PUT',
    token: harness.adminToken,
    body: { enabled: true },
  });
  const released = await harness.api(`/api/events/${event.eventId}/certificates`, {
    method: 'POST',
    token: harness.adminToken,
  });
  expect(await released.json()).toEqual({ issued: 3, skipped: 0 });

  const list = await certificatesOf(event.eventId);
  expect(list.map(({ ticketId, holderName }) => ({ ticketId, holderName }))).toEqual([
    { ticketId: colleagues.ticketId, holderName: 'Ana Souza Lima' },
    { ticketId: passed.ticketId, holderName: 'Davi Rezende Costa' },
    { ticketId: own.ticketId, holderName: 'Marina Queiroz' },
  ]);
  const emails = (await harness.issuedEvents()).filter((issued) => issued.eventId === event.eventId);
  expect(emails.map((issued) => issued.holder.email).sort()).toEqual(
    [order.buyer.email, colleague.email, newcomer.email].sort(),
  );

  // Ana reads hers with her own account (another id, her e-mail); the buyer reads only her own.
  const codeOf = (ticketId: string) => list.find((certificate) => certificate.ticketId === ticketId)!.code;
  const anaToken = await harness.tokenOf(randomUUID(), colleague.email.toUpperCase());
  const anas = (await (await harness.api('/api/certificates', { token: anaToken })).json()) as CertificateView[];
  expect(anas.map((certificate) => certificate.code)).toEqual([codeOf(colleagues.ticketId)]);
  expect((await harness.api(`/api/certificates/${codeOf(colleagues.ticketId)}/pdf`, { token: anaToken })).status).toBe(
    200,
  );
  const buyerToken = await harness.tokenOf(order.userId, order.buyer.email);
  const buyers = (await (await harness.api('/api/certificates', { token: buyerToken })).json()) as CertificateView[];
  expect(buyers.map((certificate) => certificate.code)).toEqual([codeOf(own.ticketId)]);
  expect(
    (await harness.api(`/api/certificates/${codeOf(colleagues.ticketId)}/pdf`, { token: buyerToken })).status,
  ).toBe(404);

  // The buyer's account is deleted: her own certificate goes; those she bought for others stay theirs.
  await harness.emit('user.deleted', { userId: order.userId });
  const after = await certificatesOf(event.eventId);
  expect(after.map(({ ticketId, holderName, status }) => ({ ticketId, holderName, status }))).toEqual(
    expect.arrayContaining([
      { ticketId: colleagues.ticketId, holderName: 'Ana Souza Lima', status: 'válido' },
      { ticketId: passed.ticketId, holderName: 'Davi Rezende Costa', status: 'válido' },
      { ticketId: own.ticketId, holderName: 'Titular removido', status: 'revogado' },
    ]),
  );
});
