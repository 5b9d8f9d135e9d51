import type { EventView } from '@ticketing/proto';
import { json, redemptionForm, startCourtesy, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy();
});
afterAll(() => courtesy.stop());

/** A congress selling 'Profissional' and 'Estudante', and 'Convidado VIP', hidden, with a document at the door. */
async function congress(): Promise<{ event: EventView; types: { id: string; name: string; hidden: boolean }[] }> {
  const event = await courtesy.createEvent({
    maxAttendees: 50,
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Estudante', price: '190.00' },
      { name: 'Convidado VIP', price: '500.00', hidden: true, requiresDocument: true },
    ],
  });
  const answer = await courtesy.call('GET', `/api/courtesy/events/${event.id}/ticket-types`, {
    token: courtesy.admin.token,
  });
  expect(answer.status).toBe(200);
  return { event, types: (await json(answer)).ticketTypes };
}

test('a courtesy manager sees every type a link may name, hidden ones too; no one else does', async () => {
  const { event, types } = await congress();
  expect(types).toEqual([
    { id: event.ticketTypes[0]!.id, name: 'Profissional', hidden: false, requiresDocument: false },
    { id: event.ticketTypes[1]!.id, name: 'Estudante', hidden: false, requiresDocument: false },
    { id: expect.any(String), name: 'Convidado VIP', hidden: true, requiresDocument: true },
  ]);

  const guest = await courtesy.user();
  const path = `/api/courtesy/events/${event.id}/ticket-types`;
  expect((await courtesy.call('GET', path, { token: guest.token })).status).toBe(403);
  expect((await courtesy.call('GET', path)).status).toBe(401);
  const unknown = await courtesy.call('GET', '/api/courtesy/events/6f1f1c55-5e0f-4f8e-9d6a-1b2c3d4e5f60/ticket-types', {
    token: courtesy.admin.token,
  });
  expect(unknown.status).toBe(404);
});

test('a link names its type, a hidden one too: stored, listed, shown to guests and carried by courtesy.redeemed', async () => {
  const { event, types } = await congress();
  const vip = types[2]!;
  const response = await courtesy.createLink({
    eventId: event.id,
    ticketCount: 2,
    overridePrice: null,
    ticketTypeId: vip.id,
  });
  expect(response.status).toBe(201);
  const link = await json(response);
  expect(link.ticketType).toEqual({ id: vip.id, name: 'Convidado VIP' });
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({
    ticket_type_id: vip.id,
    ticket_type_name: 'Convidado VIP',
    ticket_type_requires_document: true,
  });

  const list = await json(await courtesy.call('GET', '/api/courtesy-links?page=1', { token: courtesy.admin.token }));
  expect(list.links.find((listed: { id: string }) => listed.id === link.id).ticketType).toEqual(link.ticketType);
  const lookup = await json(await courtesy.call('GET', `/api/courtesy-links/${link.code}`));
  expect(lookup.ticketType).toEqual({ id: vip.id, name: 'Convidado VIP' });

  const guest = await courtesy.user();
  const redeemed = await courtesy.call('POST', '/api/courtesy/redeem', {
    token: guest.token,
    body: redemptionForm(link.code),
  });
  expect(redeemed.status).toBe(201);
  const [payload] = (await courtesy.published('courtesy.redeemed')).filter((event) => event.linkId === link.id);
  expect(payload!.ticketType).toEqual({ id: vip.id, name: 'Convidado VIP', requiresDocument: true });
});

test("a link naming no type is of the event's first one; a promotional link's quote names its type", async () => {
  const { event, types } = await congress();
  const free = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: null }));
  expect(free.ticketType).toEqual({ id: types[0]!.id, name: 'Profissional' });

  const promo = await json(
    await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: 50, ticketTypeId: types[1]!.id }),
  );
  const quote = await courtesy.call('GET', `/internal/promo-links/${promo.code}?eventId=${event.id}`);
  expect(await json(quote)).toEqual({
    linkId: promo.id,
    overridePrice: '50.00',
    ticketType: { id: types[1]!.id, name: 'Estudante' },
  });
});

test('a type the event does not sell is refused, and nothing is held or stored', async () => {
  const { event } = await congress();
  const other = await courtesy.createEvent();
  const before = await courtesy.service.db('courtesy_links').where({ event_id: event.id });

  for (const ticketTypeId of [other.ticketTypes[0]!.id, 'profissional']) {
    const refused = await courtesy.createLink({ eventId: event.id, ticketCount: 3, overridePrice: null, ticketTypeId });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ message: 'Tipo de ingresso não encontrado neste evento' });
  }
  expect(await courtesy.attendees(event.id)).toBe(0);
  expect(await courtesy.service.db('courtesy_links').where({ event_id: event.id })).toEqual(before);
});

test('a link made before links named a type reads as none, and its redemption names none', async () => {
  const { event } = await congress();
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: null }));
  await courtesy.service
    .db('courtesy_links')
    .where({ id: link.id })
    .update({ ticket_type_id: null, ticket_type_name: null, ticket_type_requires_document: null });

  expect((await json(await courtesy.call('GET', `/api/courtesy-links/${link.code}`))).ticketType).toBeNull();
  const guest = await courtesy.user();
  const body = redemptionForm(link.code);
  expect((await courtesy.call('POST', '/api/courtesy/redeem', { token: guest.token, body })).status).toBe(201);
  const [payload] = (await courtesy.published('courtesy.redeemed')).filter((event) => event.linkId === link.id);
  expect(payload).not.toHaveProperty('ticketType');
});
