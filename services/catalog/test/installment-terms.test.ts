import { randomUUID } from 'node:crypto';
import type { AdminEventView, EventView, HoldView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const admin = (method: string, path: string, body?: unknown) =>
  catalog.request(method, `/api/admin/events${path}`, { token: catalog.adminToken, body });
const patch = (id: string, body: unknown) =>
  catalog.request('PATCH', `/api/events/${id}`, { token: catalog.adminToken, body });
const eventRow = (id: string) => catalog.service.db('events').where({ id }).first();

async function adminCreate(fields: Record<string, unknown> = {}): Promise<AdminEventView> {
  const response = await admin('POST', '', {
    title: `Congresso ${randomUUID()}`,
    date: inDays(40),
    location: 'Curitiba – PR',
    price: '900.00',
    ...fields,
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as AdminEventView;
}

test('an event created with terms answers and stores them, on the public API and in the back office', async () => {
  const event = await catalog.createEvent({ price: '600.00', maxInstallments: 6, minInstallmentValue: '50,5' });
  expect(event.installments).toEqual({ max: 6, minValue: '50.50' });
  expect(await eventRow(event.id)).toMatchObject({ max_installments: 6, min_installment_value: '50.50' });

  const read = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(read.installments).toEqual({ max: 6, minValue: '50.50' });
  const listed = (await (await catalog.request('GET', '/api/events')).json()) as EventView[];
  expect(listed.find((each) => each.id === event.id)?.installments).toEqual({ max: 6, minValue: '50.50' });

  const fromBackOffice = await adminCreate({ maxInstallments: 12, minInstallmentValue: 100 });
  expect(fromBackOffice.installments).toEqual({ max: 12, minValue: '100.00' });
  const adminRead = (await (await admin('GET', `/${fromBackOffice.id}`)).json()) as AdminEventView;
  expect(adminRead.installments).toEqual({ max: 12, minValue: '100.00' });
  const page = (await (await admin('GET', `?q=${encodeURIComponent(fromBackOffice.title)}`)).json()) as {
    events: AdminEventView[];
  };
  expect(page.events.map((each) => each.installments)).toEqual([{ max: 12, minValue: '100.00' }]);
});

test('events that never said sell at once: 1x, R$ 5,00, and setting one term keeps the other', async () => {
  const event = await catalog.createEvent();
  expect(event.installments).toEqual({ max: 1, minValue: '5.00' });
  const draft = await adminCreate();
  expect(draft.installments).toEqual({ max: 1, minValue: '5.00' });
  // A row written without the columns (as every event before them was) reads the same; a draft, out of the listings.
  const [legacy] = (await catalog.service
    .db('events')
    .insert({
      title: 'Antigo',
      date: new Date(Date.now() + 86_400_000),
      location: 'Belém – PA',
      price: '10.00',
      published_at: null,
    })
    .returning(['max_installments', 'min_installment_value'])) as Record<string, unknown>[];
  expect(legacy).toEqual({ max_installments: 1, min_installment_value: '5.00' });

  const onlyMax = await patch(event.id, { maxInstallments: 3 });
  expect(onlyMax.status).toBe(200);
  expect(((await onlyMax.json()) as EventView).installments).toEqual({ max: 3, minValue: '5.00' });
  const onlyMin = await patch(event.id, { minInstallmentValue: '20.00' });
  expect(((await onlyMin.json()) as EventView).installments).toEqual({ max: 3, minValue: '20.00' });
  // An edit of other fields leaves the terms alone.
  const other = await patch(event.id, { description: 'Nova descrição' });
  expect(((await other.json()) as EventView).installments).toEqual({ max: 3, minValue: '20.00' });
});

test('the back office edits the terms, and a copy of the event keeps them', async () => {
  const event = await adminCreate({ maxInstallments: 2 });
  const edited = await admin('PATCH', `/${event.id}`, { maxInstallments: 10, minInstallmentValue: '45.00' });
  expect(edited.status).toBe(200);
  expect(((await edited.json()) as AdminEventView).installments).toEqual({ max: 10, minValue: '45.00' });
  expect(await eventRow(event.id)).toMatchObject({ max_installments: 10, min_installment_value: '45.00' });

  const copy = await admin('POST', `/${event.id}/duplicate`);
  expect(copy.status).toBe(201);
  expect(((await copy.json()) as AdminEventView).installments).toEqual({ max: 10, minValue: '45.00' });
});

test('terms out of range are refused with a pt-BR message and change nothing', async () => {
  const event = await catalog.createEvent({ maxInstallments: 4, minInstallmentValue: '30.00' });
  const maxMessage = 'O número máximo de parcelas deve ser de 1 a 12.';
  const minMessage = 'O valor mínimo da parcela deve ser de pelo menos R$ 5,00.';
  const cases: [Record<string, unknown>, string][] = [
    [{ maxInstallments: 0 }, maxMessage],
    [{ maxInstallments: 13 }, maxMessage],
    [{ maxInstallments: 2.5 }, maxMessage],
    [{ maxInstallments: '3' }, maxMessage],
    [{ minInstallmentValue: '4.99' }, minMessage],
    [{ minInstallmentValue: 'cinco' }, minMessage],
    [{ minInstallmentValue: -10 }, minMessage],
  ];
  for (const [body, message] of cases) {
    const responses = {
      publicUpdate: await patch(event.id, body),
      adminUpdate: await admin('PATCH', `/${event.id}`, body),
      publicCreate: await catalog.request('POST', '/api/events', {
        token: catalog.adminToken,
        body: { title: 'Recusado', date: inDays(5), location: 'Natal – RN', price: '10.00', ...body },
      }),
      adminCreate: await admin('POST', '', {
        title: 'Recusado',
        date: inDays(5),
        location: 'Natal – RN',
        price: '10.00',
        ...body,
      }),
    };
    for (const [route, response] of Object.entries(responses)) {
      expect({ body, route, status: response.status, answer: await response.json() }).toEqual({
        body,
        route,
        status: 400,
        answer: expect.objectContaining({ message }),
      });
    }
  }
  expect(await eventRow(event.id)).toMatchObject({ max_installments: 4, min_installment_value: '30.00' });
  expect(await catalog.service.db('events').where({ title: 'Recusado' })).toEqual([]);
});

test('the hold answer carries the event terms, so orders can check a purchase against them', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5, maxInstallments: 8, minInstallmentValue: '25.00' });
  const response = await catalog.request('PUT', `/internal/events/${event.id}/holds/order:${randomUUID()}`, {
    body: { quantity: 2 },
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as HoldView;
  expect(answer.event.installments).toEqual({ max: 8, minValue: '25.00' });
});
