import { randomUUID } from 'node:crypto';
import { inDays, json, SITE, startCourtesy, waitFor, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy();
});
afterAll(() => courtesy.stop());

const CODE = /^CDPI\d{5}[A-Z]{3}$/;

test('a free link gets a fresh code, holds its spots in the catalog and points to the redemption page', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 20 });
  const response = await courtesy.createLink({ eventId: event.id, ticketCount: 5, overridePrice: null });
  expect(response.status).toBe(201);
  const link = await json(response);
  expect(link).toEqual({
    id: expect.any(String),
    code: expect.stringMatching(CODE),
    event: { title: event.title },
    eventId: event.id,
    ticketType: { id: event.ticketTypes[0]!.id, name: 'Ingresso' },
    ticketCount: 5,
    remainingTickets: 5,
    overridePrice: null,
    isActive: true,
    createdAt: expect.any(String),
    redeemUrl: `${SITE}/cortesia?code=${link.code}`,
  });
  expect(await courtesy.attendees(event.id)).toBe(5);
  expect(
    await courtesy.catalog
      .db('holds')
      .where({ id: `courtesy-link:${link.id}` })
      .first(),
  ).toMatchObject({
    quantity: 5,
    released_at: null,
  });
});

test('a promotional link holds nothing and points to the event page with its code', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 20 });
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 3, overridePrice: 80.5 }));
  expect(link).toMatchObject({ overridePrice: '80.50', remainingTickets: 3 });
  expect(link.redeemUrl).toBe(`${SITE}/event/${event.id}?promo=${link.code}`);
  expect(await courtesy.attendees(event.id)).toBe(0);
  const free = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: 0 }));
  expect(free.overridePrice).toBe('0.00');
});

test('an event without the spots a free link asks for is refused, and nothing is left behind', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 3 });
  const response = await courtesy.createLink({ eventId: event.id, ticketCount: 4, overridePrice: null });
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({
    message: 'O evento não tem vagas suficientes para esta quantidade de cortesias.',
  });
  expect(await courtesy.attendees(event.id)).toBe(0);
  expect(await courtesy.service.db('courtesy_links').where({ event_id: event.id })).toHaveLength(0);
});

test('unknown, past and inactive events cannot get links', async () => {
  const unknown = await courtesy.createLink({ eventId: randomUUID(), ticketCount: 1, overridePrice: null });
  expect(unknown.status).toBe(404);
  expect(await json(unknown)).toEqual({ message: 'Evento não encontrado' });

  const past = await courtesy.createEvent();
  await courtesy.catalog
    .db('events')
    .where({ id: past.id })
    .update({ date: inDays(-1) });
  const late = await courtesy.createLink({ eventId: past.id, ticketCount: 1, overridePrice: null });
  expect(late.status).toBe(409);
  expect(await json(late)).toEqual({ message: 'Este evento não está disponível para cortesias.' });
});

test.each([
  [
    { eventId: undefined, ticketCount: 1, overridePrice: null },
    'Por favor, selecione um evento para o link de cortesia',
  ],
  [{ eventId: 'x', ticketCount: 1 }, 'Por favor, selecione um evento para o link de cortesia'],
  [{ ticketCount: 0 }, 'A quantidade de ingressos deve ser um número inteiro entre 1 e 100'],
  [{ ticketCount: 101 }, 'A quantidade de ingressos deve ser um número inteiro entre 1 e 100'],
  [{ ticketCount: 1.5 }, 'A quantidade de ingressos deve ser um número inteiro entre 1 e 100'],
  [{ ticketCount: '2' }, 'A quantidade de ingressos deve ser um número inteiro entre 1 e 100'],
  [{ ticketCount: 1, overridePrice: -1 }, 'O preço promocional deve ser um valor maior ou igual a zero'],
  [{ ticketCount: 1, overridePrice: '10' }, 'O preço promocional deve ser um valor maior ou igual a zero'],
])('a bad link %j is a 400: %s', async (fields, message) => {
  const event = await courtesy.createEvent();
  const response = await courtesy.createLink({ eventId: event.id, ...fields });
  expect(response.status).toBe(400);
  expect(await json(response)).toEqual({ message });
});

test('only courtesy managers create, list and deactivate links, not even other administrators', async () => {
  const event = await courtesy.createEvent();
  const user = await courtesy.user();
  const otherAdmin = { token: await courtesy.issuer.sign({ roles: ['admin', 'doorStaff'] }) };
  const body = { eventId: event.id, ticketCount: 1, overridePrice: null };
  expect((await courtesy.call('POST', '/api/courtesy-links', { body })).status).toBe(401);
  const link = await json(await courtesy.createLink(body));
  for (const who of [user, otherAdmin]) {
    const created = await courtesy.createLink(body, who.token);
    expect({ status: created.status, body: await json(created) }).toEqual({
      status: 403,
      body: { message: 'Acesso restrito a quem gerencia cortesias' },
    });
    expect((await courtesy.call('GET', '/api/courtesy-links', { token: who.token })).status).toBe(403);
    expect((await courtesy.call('DELETE', `/api/courtesy-links/${link.id}`, { token: who.token })).status).toBe(403);
  }
  expect(await courtesy.service.db('courtesy_links').where({ event_id: event.id })).toEqual([
    expect.objectContaining({ id: link.id, is_active: true }),
  ]);
});

test('the list is newest first, 10 a page, with the number of pages', async () => {
  await courtesy.service
    .db('courtesy_links')
    .delete()
    .whereNotIn('id', courtesy.service.db('courtesy_redemptions').select('link_id'));
  const event = await courtesy.createEvent();
  const codes: string[] = [];
  for (let i = 0; i < 12; i++) {
    codes.push((await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: 10 }))).code);
  }
  const list = (page: number) =>
    courtesy.call('GET', `/api/courtesy-links?page=${page}`, { token: courtesy.admin.token });
  const first = await json(await list(1));
  const second = await json(await list(2));
  expect(first.totalPages).toBe(2);
  expect(first.links.map((link: { code: string }) => link.code)).toEqual(codes.slice(2).reverse());
  expect(second.links.map((link: { code: string }) => link.code)).toEqual(codes.slice(0, 2).reverse());
  expect(first.links[0]).toMatchObject({ event: { title: event.title }, eventId: event.id, overridePrice: '10.00' });
  expect((await json(await list(3))).links).toEqual([]);
  const bad = await list(0);
  expect(bad.status).toBe(400);
  expect(await json(bad)).toEqual({ message: 'Página inválida' });
});

test('anyone may look a usable code up, in any case; unknown, exhausted and inactive codes are the same 404', async () => {
  const event = await courtesy.createEvent();
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 2, overridePrice: null }));
  const found = await courtesy.call('GET', `/api/courtesy-links/${link.code.toLowerCase()}`);
  expect(found.status).toBe(200);
  expect(await json(found)).toEqual({
    code: link.code,
    eventId: event.id,
    event: { title: event.title, date: event.date, location: event.location },
    ticketType: { id: event.ticketTypes[0]!.id, name: 'Ingresso' },
    remainingTickets: 2,
    overridePrice: null,
  });

  const invalid = { message: 'Este código de cortesia não é válido ou já foi utilizado.' };
  const unknown = await courtesy.call('GET', '/api/courtesy-links/CDPI00000AAA');
  expect(unknown.status).toBe(404);
  expect(await json(unknown)).toEqual(invalid);

  await courtesy.service.db('courtesy_links').where({ id: link.id }).update({ used_count: 2 });
  expect(await json(await courtesy.call('GET', `/api/courtesy-links/${link.code}`))).toEqual(invalid);

  const other = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 2, overridePrice: 50 }));
  await courtesy.call('DELETE', `/api/courtesy-links/${other.id}`, { token: courtesy.admin.token });
  const inactive = await courtesy.call('GET', `/api/courtesy-links/${other.code}`);
  expect(inactive.status).toBe(404);
  expect(await json(inactive)).toEqual(invalid);
});

test('deactivating a free link gives its unused spots back and keeps the used ones, once', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 10 });
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 6, overridePrice: null }));
  await courtesy.service.db('courtesy_links').where({ id: link.id }).update({ used_count: 2 });
  expect(await courtesy.attendees(event.id)).toBe(6);

  for (let i = 0; i < 2; i++) {
    const response = await courtesy.call('DELETE', `/api/courtesy-links/${link.id}`, { token: courtesy.admin.token });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ isActive: false, remainingTickets: 0 });
  }
  expect(await courtesy.attendees(event.id)).toBe(2);
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({
    is_active: false,
    hold_released_at: expect.any(Date),
  });

  const missing = await courtesy.call('DELETE', `/api/courtesy-links/${randomUUID()}`, { token: courtesy.admin.token });
  expect(missing.status).toBe(404);
  expect(await json(missing)).toEqual({ message: 'Link de cortesia não encontrado' });
});

test('a release the catalog could not take is retried until the spots are back', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 10 });
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 4, overridePrice: null }));
  // As if the catalog had been down when the link was deactivated.
  await courtesy.service.db('courtesy_links').where({ id: link.id }).update({ is_active: false });
  expect(await courtesy.attendees(event.id)).toBe(4);
  await waitFor(async () => (await courtesy.attendees(event.id)) === 0);
});
