import type { EventTicketTypes } from '@ticketing/proto';
import { startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const typesOf = (eventId: string, caller: string | null = 'courtesy') =>
  catalog.request('GET', `/internal/events/${eventId}/ticket-types`, { caller });

test('courtesy reads every type of an event, hidden ones too, in order', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '200.00' },
      { name: 'Convidado VIP', price: '0.00', hidden: true, requiresDocument: true },
    ],
  });

  const response = await typesOf(event.id);

  expect(response.status).toBe(200);
  const [visible] = event.ticketTypes;
  const { ticketTypes } = (await response.json()) as EventTicketTypes;
  expect(ticketTypes).toEqual([
    { id: visible!.id, name: 'Profissional', hidden: false, requiresDocument: false },
    { id: expect.any(String), name: 'Convidado VIP', hidden: true, requiresDocument: true },
  ]);
  expect(event.ticketTypes.map((type) => type.name)).toEqual(['Profissional']);
});

test('only courtesy may read them, and an unknown event is a 404', async () => {
  const event = await catalog.createEvent();

  expect((await typesOf(event.id, 'orders')).status).toBe(403);
  expect((await typesOf(event.id, null)).status).toBe(401);
  const unknown = await typesOf('6f1f1c55-5e0f-4f8e-9d6a-1b2c3d4e5f60');
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { message: string }).message).toBe('Evento não encontrado');
});
