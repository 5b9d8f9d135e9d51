import { randomUUID } from 'node:crypto';
import type { AdminEventView, EventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const admin = (method: string, path: string, body?: unknown) =>
  catalog.request(method, `/api/admin/events${path}`, { token: catalog.adminToken, body });
const patch = (eventId: string, body: unknown) =>
  catalog.request('PATCH', `/api/events/${eventId}`, { token: catalog.adminToken, body });
const hold = (eventId: string, typeIds: string[]) =>
  catalog.request('PUT', `/internal/events/${eventId}/holds/order:${randomUUID()}`, {
    body: { quantity: typeIds.length, items: typeIds.map((ticketTypeId) => ({ ticketTypeId })) },
  });
const adminView = async (eventId: string) => (await (await admin('GET', `/${eventId}`)).json()) as AdminEventView;
const countEvents = async () => Number((await catalog.service.db('events').count({ n: '*' }))[0]!.n);

const congress = {
  ticketTypes: [
    {
      name: 'Profissional',
      price: '900.00',
      requiresDocument: false,
      lots: [
        { price: '600.00', endsAt: '2030-03-01T23:59:00-03:00' },
        { name: 'Último lote', price: '750.00', quantity: 100 },
      ],
    },
    { name: 'Estudante', price: '300.00', capacity: 50, requiresDocument: true },
    { name: 'Patrocinador', price: '0.00', hidden: true },
  ],
};

test('an event is created with its types and lots; buyers see the visible ones, the back office all of them', async () => {
  const event = await catalog.createEvent({ ...congress, date: '2030-04-10T09:00:00-03:00', maxAttendees: 500 });

  expect(event.price).toBe('300.00');
  expect(event.ticketTypes).toEqual([
    {
      id: expect.any(String),
      name: 'Profissional',
      price: '600.00',
      remaining: 500,
      requiresDocument: false,
      onSale: true,
      salesStartAt: null,
      salesEndAt: null,
      currentLot: {
        id: expect.any(String),
        name: '1º lote',
        price: '600.00',
        endsAt: '2030-03-02T02:59:00.000Z',
        remaining: null,
      },
    },
    {
      id: expect.any(String),
      name: 'Estudante',
      price: '300.00',
      remaining: 50,
      requiresDocument: true,
      onSale: true,
      salesStartAt: null,
      salesEndAt: null,
      currentLot: null,
    },
  ]);
  expect(await (await catalog.request('GET', `/api/events/${event.id}`)).json()).toEqual(event);

  const [professional, student, sponsor] = (await adminView(event.id)).adminTicketTypes;
  expect(professional).toEqual({
    id: event.ticketTypes[0]!.id,
    name: 'Profissional',
    price: '900.00',
    capacity: null,
    hidden: false,
    requiresDocument: false,
    salesStartAt: null,
    salesEndAt: null,
    localSalesStartAt: null,
    localSalesEndAt: null,
    taken: 0,
    currentLotId: event.ticketTypes[0]!.currentLot!.id,
    lots: [
      {
        id: event.ticketTypes[0]!.currentLot!.id,
        name: '1º lote',
        price: '600.00',
        endsAt: '2030-03-02T02:59:00.000Z',
        localEndsAt: '2030-03-01T23:59',
        quantity: null,
        taken: 0,
      },
      {
        id: expect.any(String),
        name: 'Último lote',
        price: '750.00',
        endsAt: null,
        localEndsAt: null,
        quantity: 100,
        taken: 0,
      },
    ],
  });
  expect(student).toMatchObject({ name: 'Estudante', capacity: 50, lots: [], currentLotId: null });
  expect(sponsor).toMatchObject({ name: 'Patrocinador', hidden: true, price: '0.00' });
});

test('types and lots that make no sense are refused with a clear message, and nothing is written', async () => {
  const type = { name: 'Profissional', price: '100.00' };
  const cases: [unknown, string][] = [
    [[], 'Informe ao menos um tipo de ingresso'],
    [[{ price: '10.00' }], 'Nome do tipo de ingresso é obrigatório (até 60 caracteres)'],
    [[type, { ...type, name: 'profissional' }], 'Os tipos de ingresso devem ter nomes diferentes'],
    [[{ ...type, capacity: 0 }], 'Capacidade do tipo deve ser um número inteiro de pelo menos 1'],
    [[{ ...type, salesStartAt: inDays(5), salesEndAt: inDays(2) }], 'O fim das vendas deve ser depois do início'],
    [
      [
        {
          ...type,
          lots: [
            { price: '10.00', endsAt: inDays(5) },
            { price: '20.00', endsAt: inDays(2) },
          ],
        },
      ],
      'Os lotes devem terminar em ordem: cada data de fim depois da anterior',
    ],
    [
      [{ ...type, lots: [{ price: '10.00' }, { price: '20.00', quantity: 5 }] }],
      'Só o último lote pode ficar sem data de fim nem quantidade',
    ],
    [
      [{ ...type, lots: [{ price: '10.00', quantity: 0 }] }],
      'Quantidade do lote deve ser um número inteiro de pelo menos 1',
    ],
    [[{ ...type, lots: [{ price: 'dez' }] }], 'Preço inválido: use um valor como 150.00'],
    [[{ ...type, id: randomUUID() }], 'Tipo de ingresso não encontrado neste evento'],
    [[{ ...type, lots: [{ price: '10.00', color: 'azul' }] }], 'Campo desconhecido: color'],
  ];
  const before = await countEvents();
  for (const [ticketTypes, message] of cases) {
    const response = await catalog.request('POST', '/api/events', {
      token: catalog.adminToken,
      body: { title: 'Jornada', date: inDays(30), location: 'Natal – RN', price: '100.00', ticketTypes },
    });
    expect({ ticketTypes, status: response.status, body: await response.json() }).toEqual({
      ticketTypes,
      status: 400,
      body: { message },
    });
  }
  expect(await countEvents()).toBe(before);
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('an edit sends every type: ids keep types and lots, new ones are added, those left out go', async () => {
  const event = await catalog.createEvent(congress);
  const [before] = (await adminView(event.id)).adminTicketTypes;
  const [firstLot, lastLot] = before!.lots;

  const response = await patch(event.id, {
    ticketTypes: [
      { name: 'Estudante de graduação', price: '250.00' },
      {
        id: before!.id,
        name: 'Profissional',
        price: '950.00',
        lots: [
          { id: firstLot!.id, price: '650.00', quantity: 40 },
          { id: lastLot!.id, name: 'Lote final', price: '800.00', quantity: 120 },
        ],
      },
    ],
  });
  expect(response.status).toBe(200);
  const edited = (await response.json()) as EventView;
  expect(edited.ticketTypes.map(({ name, price }) => ({ name, price }))).toEqual([
    { name: 'Estudante de graduação', price: '250.00' },
    { name: 'Profissional', price: '650.00' },
  ]);
  expect(edited.ticketTypes[1]!.id).toBe(before!.id);
  const after = (await adminView(event.id)).adminTicketTypes;
  expect(after).toHaveLength(2);
  expect(after[1]!.lots).toEqual([
    expect.objectContaining({ id: firstLot!.id, name: '1º lote', price: '650.00', endsAt: null, quantity: 40 }),
    expect.objectContaining({ id: lastLot!.id, name: 'Lote final', price: '800.00', quantity: 120 }),
  ]);
  expect(await catalog.service.db('ticket_types').where({ event_id: event.id })).toHaveLength(2);
});

test('what took tickets can neither go nor drop below what it took', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '900.00', lots: [{ price: '600.00', quantity: 2 }, { price: '750.00' }] },
      { name: 'Estudante', price: '300.00', capacity: 10 },
    ],
  });
  const [professional, student] = event.ticketTypes.map((type) => type.id) as [string, string];
  expect((await hold(event.id, [professional, professional, student, student, student])).status).toBe(200);
  const [types] = [(await adminView(event.id)).adminTicketTypes];
  const [first, second] = types[0]!.lots;
  const professionalInput = {
    id: professional,
    name: 'Profissional',
    price: '900.00',
    lots: [
      { id: first!.id, price: '600.00', quantity: 2 },
      { id: second!.id, price: '750.00' },
    ],
  };
  const studentInput = { id: student, name: 'Estudante', price: '300.00', capacity: 10 };

  const refusals: [unknown[], number, string][] = [
    [[professionalInput], 409, 'O tipo Estudante já tem ingressos vendidos e não pode ser removido'],
    [
      [{ ...professionalInput, lots: [professionalInput.lots[1]] }, studentInput],
      409,
      'O 1º lote já tem ingressos vendidos e não pode ser removido',
    ],
    [
      [
        { ...professionalInput, lots: [{ ...professionalInput.lots[0], quantity: 1 }, professionalInput.lots[1]] },
        studentInput,
      ],
      409,
      'O 1º lote já vendeu mais ingressos do que a nova quantidade',
    ],
    [
      [professionalInput, { ...studentInput, capacity: 2 }],
      409,
      'A capacidade não pode ser menor que os 3 ingressos já vendidos ou reservados',
    ],
    [[professionalInput, { ...studentInput, id: randomUUID() }], 400, 'Tipo de ingresso não encontrado neste evento'],
    [
      [
        { ...professionalInput, lots: [{ ...professionalInput.lots[0], id: student }, professionalInput.lots[1]] },
        studentInput,
      ],
      400,
      'Lote não encontrado neste tipo de ingresso',
    ],
  ];
  for (const [ticketTypes, status, message] of refusals) {
    const response = await patch(event.id, { ticketTypes });
    expect({ status: response.status, body: await response.json() }).toEqual({ status, body: { message } });
  }
  expect((await adminView(event.id)).adminTicketTypes).toEqual(types);

  // Down to what it took is fine: the lot is then used up, and the next one sells.
  const kept = await patch(event.id, {
    ticketTypes: [
      { ...professionalInput, lots: [{ ...professionalInput.lots[0], quantity: 2 }, professionalInput.lots[1]] },
      { ...studentInput, capacity: 3 },
    ],
  });
  expect(kept.status).toBe(200);
  expect(((await kept.json()) as EventView).ticketTypes.map(({ price, remaining }) => ({ price, remaining }))).toEqual([
    { price: '750.00', remaining: null },
    { price: '300.00', remaining: 0 },
  ]);
});

test('a price alone changes the only type without lots; with several types or lots it is refused', async () => {
  const single = await catalog.createEvent();
  const changed = await patch(single.id, { price: '175.00' });
  expect(changed.status).toBe(200);
  expect(((await changed.json()) as EventView).ticketTypes[0]).toMatchObject({
    id: single.ticketTypes[0]!.id,
    price: '175.00',
  });
  // PUT edits as PATCH does.
  const put = await catalog.request('PUT', `/api/events/${single.id}`, {
    token: catalog.adminToken,
    body: { ticketTypes: [{ id: single.ticketTypes[0]!.id, name: 'Ingresso', price: '180.00' }] },
  });
  expect(put.status).toBe(200);
  expect(((await put.json()) as EventView).ticketTypes).toMatchObject([{ name: 'Ingresso', price: '180.00' }]);

  const withLots = await catalog.createEvent({
    ticketTypes: [
      { name: 'Ingresso', price: '150.00', lots: [{ price: '100.00', quantity: 10 }, { price: '150.00' }] },
    ],
  });
  const several = await catalog.createEvent(congress);
  for (const event of [withLots, several]) {
    const refused = await patch(event.id, { price: '99.00', title: 'Novo título' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: 'Este evento tem tipos de ingresso: altere o preço de cada tipo' });
    expect((await adminView(event.id)).title).toBe(event.title);
  }
});

test('the back office enters sale windows and lot ends in São Paulo time, and a copy gets the same types afresh', async () => {
  const response = await admin('POST', '', {
    title: `Simpósio ${randomUUID()}`,
    date: '2030-06-10T08:00',
    location: 'Porto Alegre – RS',
    price: '400.00',
    ticketTypes: [
      {
        name: 'Profissional',
        price: '400.00',
        salesStartAt: '2030-03-01T09:00',
        salesEndAt: '2030-06-09T18:00',
        lots: [{ price: '320.00', endsAt: '2030-04-30T23:59', quantity: 30 }, { price: '400.00' }],
      },
    ],
  });
  expect(response.status).toBe(201);
  const created = (await response.json()) as AdminEventView;
  expect(created.adminTicketTypes[0]).toMatchObject({
    salesStartAt: '2030-03-01T12:00:00.000Z',
    localSalesStartAt: '2030-03-01T09:00',
    localSalesEndAt: '2030-06-09T18:00',
    lots: [
      { name: '1º lote', endsAt: '2030-05-01T02:59:00.000Z', localEndsAt: '2030-04-30T23:59', quantity: 30 },
      { name: '2º lote', endsAt: null, quantity: null },
    ],
  });
  // Not yet on sale: the type's window opens in March.
  expect(created.ticketTypes[0]).toMatchObject({ onSale: false, price: '320.00' });

  const editedResponse = await admin('PATCH', `/${created.id}`, {
    ticketTypes: [
      {
        id: created.adminTicketTypes[0]!.id,
        name: 'Profissional',
        price: '400.00',
        salesStartAt: '2030-02-01T09:00',
        lots: created.adminTicketTypes[0]!.lots.map((lot) => ({
          id: lot.id,
          price: lot.price,
          endsAt: lot.localEndsAt,
          quantity: lot.quantity,
        })),
      },
    ],
  });
  expect(editedResponse.status).toBe(200);
  const edited = (await editedResponse.json()) as AdminEventView;
  expect(edited.adminTicketTypes[0]).toMatchObject({ localSalesStartAt: '2030-02-01T09:00', salesEndAt: null });
  expect(edited.adminTicketTypes[0]!.lots).toEqual(created.adminTicketTypes[0]!.lots);

  await catalog.service.db('ticket_lots').where({ id: edited.adminTicketTypes[0]!.lots[0]!.id }).update({ taken: 7 });
  await catalog.service.db('ticket_types').where({ id: edited.adminTicketTypes[0]!.id }).update({ taken: 7 });
  const copyResponse = await admin('POST', `/${created.id}/duplicate`);
  expect(copyResponse.status).toBe(201);
  const copy = (await copyResponse.json()) as AdminEventView;
  const [original] = edited.adminTicketTypes;
  const [copied] = copy.adminTicketTypes;
  expect(copied).toEqual({
    ...original,
    id: expect.not.stringMatching(original!.id),
    currentLotId: copied!.lots[0]!.id,
    lots: original!.lots.map((lot, i) => ({ ...lot, id: copied!.lots[i]!.id, taken: 0 })),
  });
  expect(copied!.lots.map((lot) => lot.id)).not.toContain(original!.lots[0]!.id);
});
