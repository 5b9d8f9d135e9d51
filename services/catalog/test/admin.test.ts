import { randomUUID } from 'node:crypto';
import type { EventView } from '@ticketing/proto';
import { waitFor } from '@ticketing/testkit';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const valid = () => ({
  title: 'Simpósio de Farmacovigilância',
  description: 'Notificação de eventos adversos e gestão de risco.',
  date: '2030-03-15T09:00:00-03:00',
  location: 'Belo Horizonte – MG',
  price: '590.00',
});

const countEvents = async () => Number((await catalog.service.db('events').count({ n: '*' }))[0]!.n);
const unhandledErrors = () => catalog.logs.lines.filter((line) => line.msg === 'unhandled error');

test('an administrator creates an event; it is stored, announced and logged', async () => {
  const response = await catalog.request('POST', '/api/events', {
    token: catalog.adminToken,
    body: {
      title: '  Congresso de Assuntos Regulatórios  ',
      description: 'Registro de medicamentos e inspeções.',
      date: '2030-05-20T08:30:00-03:00',
      location: 'São Paulo – SP',
      price: 1290.5,
      imageUrl: '/images/events/congresso.svg',
      maxAttendees: 800,
      listed: true,
    },
  });
  expect(response.status).toBe(201);
  const event = (await response.json()) as EventView;
  expect(event).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    title: 'Congresso de Assuntos Regulatórios',
    description: 'Registro de medicamentos e inspeções.',
    date: '2030-05-20T11:30:00.000Z',
    location: 'São Paulo – SP',
    price: '1290.50',
    imageUrl: '/images/events/congresso.svg',
    maxAttendees: 800,
    currentAttendees: 0,
    remaining: 800,
    isActive: true,
    listed: true,
    onSale: true,
    // Without terms, sold by card at once.
    installments: { max: 1, minValue: '5.00' },
    // Without sessions, one from its date, for the 4 h the calendar always gave an event.
    sessions: [
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        startsAt: '2030-05-20T11:30:00.000Z',
        endsAt: '2030-05-20T15:30:00.000Z',
        title: null,
      },
    ],
    // Without types, one at its price.
    ticketTypes: [
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Ingresso',
        price: '1290.50',
        remaining: 800,
        requiresDocument: false,
        onSale: true,
        salesStartAt: null,
        salesEndAt: null,
        currentLot: null,
      },
    ],
  });

  const row = await catalog.service.db('events').where({ id: event.id }).first();
  expect(row).toMatchObject({
    price: '1290.50',
    current_attendees: 0,
    is_active: true,
    search_text: 'congresso de assuntos regulatorios\nregistro de medicamentos e inspecoes.\nsao paulo – sp',
  });
  expect(await catalog.changes(event.id)).toEqual([
    {
      eventId: event.id,
      title: 'Congresso de Assuntos Regulatórios',
      date: '2030-05-20T11:30:00.000Z',
      location: 'São Paulo – SP',
      price: '1290.50',
      isActive: true,
      listed: true,
      maxAttendees: 800,
      sessions: event.sessions,
    },
  ]);
  const requestId = response.headers.get('x-request-id');
  expect(catalog.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'event created', eventId: event.id, requestId }),
  );
  // The relay publishes what the transaction recorded.
  await waitFor(async () => (await catalog.service.db('outbox').where({ key: event.id }).first())?.published_at);
});

test('optional fields take their defaults', async () => {
  const { description: _, ...withoutDescription } = valid();
  const response = await catalog.request('POST', '/api/events', {
    token: catalog.adminToken,
    body: withoutDescription,
  });
  expect(response.status).toBe(201);
  expect(await response.json()).toMatchObject({
    description: '',
    imageUrl: null,
    maxAttendees: null,
    remaining: null,
    currentAttendees: 0,
    isActive: true,
    listed: true,
  });
});

test('create, update and deactivate refuse anonymous callers (401) and non-administrators (403)', async () => {
  const event = await catalog.createEvent();
  const before = await countEvents();
  const attempts: [string, string, unknown][] = [
    ['POST', '/api/events', valid()],
    ['PATCH', `/api/events/${event.id}`, { title: 'Outro título' }],
    ['DELETE', `/api/events/${event.id}`, undefined],
  ];
  for (const [method, path, body] of attempts) {
    const anonymous = await catalog.request(method, path, { body });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Não autenticado. Faça login para continuar.' });
    const user = await catalog.request(method, path, { body, token: catalog.userToken });
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({ message: 'Acesso restrito a administradores' });
  }
  expect(await countEvents()).toBe(before);
  expect(await (await catalog.request('GET', `/api/events/${event.id}`)).json()).toEqual(event);
  expect(await catalog.changes(event.id)).toHaveLength(1);
});

test('bad event data is a 400 with the contract message and stores nothing', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ title: undefined }, 'Título é obrigatório'],
    [{ title: 123 }, 'Título é obrigatório'],
    [{ title: '   ' }, 'Título é obrigatório'],
    [{ title: 'x'.repeat(10_001) }, 'Título deve ter no máximo 255 caracteres'],
    [{ title: 'Farmácia\u0000Clínica' }, 'Texto com caracteres inválidos'],
    [{ description: 42 }, 'Descrição deve ser um texto'],
    [{ description: 'x'.repeat(20_001) }, 'Descrição deve ter no máximo 20000 caracteres'],
    [{ location: 'y'.repeat(10_001) }, 'Local deve ter no máximo 255 caracteres'],
    [{ location: undefined }, 'Local é obrigatório'],
    [{ date: 'amanhã' }, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ date: '2030-03-15T09:00:00' }, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ date: '2030-02-30T09:00:00Z' }, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ date: 1893456000000 }, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ date: '0000-01-01T00:00:00Z' }, 'Data fora do intervalo permitido (entre 2000 e 2100)'],
    [{ date: '2100-01-01T00:00:00Z' }, 'Data fora do intervalo permitido (entre 2000 e 2100)'],
    [{ price: 'grátis' }, 'Preço inválido: use um valor como 150.00'],
    [{ price: -10 }, 'Preço inválido: use um valor como 150.00'],
    [{ price: '150.999' }, 'Preço inválido: use um valor como 150.00'],
    [{ price: 1e12 }, 'Preço inválido: use um valor como 150.00'],
    [{ price: null }, 'Preço inválido: use um valor como 150.00'],
    [{ imageUrl: 'javascript:alert(1)' }, 'URL da imagem inválida: envie a imagem pelo formulário do evento'],
    [{ imageUrl: `/images/${'a'.repeat(10_001)}.svg` }, 'URL da imagem deve ter no máximo 500 caracteres'],
    [{ maxAttendees: 1.5 }, 'Número máximo de participantes deve ser um número inteiro'],
    [{ maxAttendees: '100' }, 'Número máximo de participantes deve ser um número inteiro'],
    [{ maxAttendees: 0 }, 'Número máximo de participantes deve ser pelo menos 1'],
    [{ maxAttendees: 10_000_000 }, 'Número máximo de participantes deve ser no máximo 1000000'],
    [{ listed: 'sim' }, 'listed deve ser verdadeiro ou falso'],
    [{ currentAttendees: 50 }, 'Campo desconhecido: currentAttendees'],
    [{ isActive: false }, 'Campo desconhecido: isActive'],
    [{ id: randomUUID() }, 'Campo desconhecido: id'],
  ];
  const before = await countEvents();
  for (const [change, message] of cases) {
    const response = await catalog.request('POST', '/api/events', {
      token: catalog.adminToken,
      body: { ...valid(), ...change },
    });
    expect({ change, status: response.status, body: await response.json() }).toEqual({
      change,
      status: 400,
      body: { message },
    });
  }
  for (const [raw, message] of [
    ['[]', 'Dados do evento inválidos'],
    ['{"title":', 'Requisição inválida: verifique os dados enviados (JSON malformado?)'],
    ['"texto"', 'Requisição inválida: verifique os dados enviados (JSON malformado?)'],
  ] as const) {
    const response = await catalog.request('POST', '/api/events', { token: catalog.adminToken, raw });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
  }
  const huge = await catalog.request('POST', '/api/events', {
    token: catalog.adminToken,
    body: { ...valid(), description: 'z'.repeat(200_000) },
  });
  expect(huge.status).toBe(413);
  expect(await huge.json()).toEqual({ message: 'Requisição grande demais' });
  expect(await countEvents()).toBe(before);
  expect(unhandledErrors()).toEqual([]);
});

test('an administrator updates some fields; search follows the new text', async () => {
  const tag = `t${randomUUID().slice(0, 8)}`;
  const event = await catalog.createEvent({ title: `Workshop de BPF ${tag}`, maxAttendees: 40 });
  const response = await catalog.request('PATCH', `/api/events/${event.id}`, {
    token: catalog.adminToken,
    body: { title: `Workshop de Validação ${tag}`, price: '690', location: 'Campinas – SP', listed: false },
  });
  expect(response.status).toBe(200);
  const updated = (await response.json()) as EventView;
  expect(updated).toEqual({
    ...event,
    title: `Workshop de Validação ${tag}`,
    price: '690.00',
    location: 'Campinas – SP',
    listed: false,
    // The price of its only type, which has no lots.
    ticketTypes: [{ ...event.ticketTypes[0], price: '690.00' }],
  });
  expect(await (await catalog.request('GET', `/api/events/${event.id}`)).json()).toEqual(updated);

  const relisted = await catalog.request('PATCH', `/api/events/${event.id}`, {
    token: catalog.adminToken,
    body: { listed: true },
  });
  expect(relisted.status).toBe(200);
  const found = (await (await catalog.request('GET', `/api/events?q=validacao%20${tag}`)).json()) as EventView[];
  expect(found.map((item) => item.id)).toEqual([event.id]);
  expect(await (await catalog.request('GET', `/api/events?q=bpf%20${tag}`)).json()).toEqual([]);

  const row = await catalog.service.db('events').where({ id: event.id }).first();
  expect(row.search_text).toBe(
    `workshop de validacao ${tag}\num encontro para profissionais da industria farmaceutica.\ncampinas – sp`,
  );
  expect(row.updated_at.getTime()).toBeGreaterThan(row.created_at.getTime());
  const changes = await catalog.changes(event.id);
  expect(changes.map((change) => [change.title, change.price, change.listed])).toEqual([
    [`Workshop de BPF ${tag}`, '150.00', true],
    [`Workshop de Validação ${tag}`, '690.00', false],
    [`Workshop de Validação ${tag}`, '690.00', true],
  ]);
});

test('the limit cannot drop below the spots already taken (409); it can be raised, met or removed', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5 });
  const held = await catalog.request('PUT', `/internal/events/${event.id}/holds/pedido-1`, { body: { quantity: 3 } });
  expect(held.status).toBe(200);

  const patch = (body: unknown) =>
    catalog.request('PATCH', `/api/events/${event.id}`, { token: catalog.adminToken, body });
  const refused = await patch({ maxAttendees: 2, title: 'Não deve mudar' });
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({
    message: 'A capacidade não pode ser menor que os 3 ingressos já vendidos ou reservados',
  });
  const row = await catalog.service.db('events').where({ id: event.id }).first();
  expect(row).toMatchObject({ max_attendees: 5, current_attendees: 3, title: event.title });
  // Announced: its creation only (the hold moved its count, the refused change nothing).
  expect(await catalog.changes(event.id)).toHaveLength(1);

  expect(await (await patch({ maxAttendees: 3 })).json()).toMatchObject({ maxAttendees: 3, remaining: 0 });
  expect(await (await patch({ maxAttendees: 10 })).json()).toMatchObject({ maxAttendees: 10, remaining: 7 });
  expect(await (await patch({ maxAttendees: null })).json()).toMatchObject({ maxAttendees: null, remaining: null });
  expect((await catalog.changes(event.id)).map((change) => change.maxAttendees)).toEqual([5, 3, 10, null]);
});

test('bad updates are a 400 with the contract message; unknown or malformed ids are 404', async () => {
  const event = await catalog.createEvent();
  const cases: [unknown, string][] = [
    [{}, 'Informe ao menos um campo para atualizar'],
    [{ title: null }, 'Título é obrigatório'],
    [{ title: 'x'.repeat(10_001) }, 'Título deve ter no máximo 255 caracteres'],
    [{ maxAttendees: 'dez' }, 'Número máximo de participantes deve ser um número inteiro'],
    [{ isActive: 'yes' }, 'isActive deve ser verdadeiro ou falso'],
    [{ price: '12,345' }, 'Preço inválido: use um valor como 150.00'],
    [{ date: '2030-13-01T00:00:00Z' }, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ currentAttendees: 0 }, 'Campo desconhecido: currentAttendees'],
    [{ description: 'ok', createdAt: 'x', id: 'y' }, 'Campo desconhecido: createdAt, id'],
    [[{ title: 'x' }], 'Dados do evento inválidos'],
  ];
  for (const [body, message] of cases) {
    const response = await catalog.request('PATCH', `/api/events/${event.id}`, { token: catalog.adminToken, body });
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  const malformed = await catalog.request('PATCH', `/api/events/${event.id}`, {
    token: catalog.adminToken,
    raw: '{"title": "a",}',
  });
  expect(malformed.status).toBe(400);
  for (const id of ['nao-existe', randomUUID()]) {
    for (const method of ['PATCH', 'DELETE']) {
      const response = await catalog.request(method, `/api/events/${id}`, {
        token: catalog.adminToken,
        body: method === 'PATCH' ? { title: 'Novo' } : undefined,
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Evento não encontrado' });
    }
  }
  expect(await catalog.changes(event.id)).toHaveLength(1);
  expect(unhandledErrors()).toEqual([]);
});

test('deactivating takes an event off the listing, the detail and sale; repeating it changes nothing', async () => {
  const tag = `d${randomUUID().slice(0, 8)}`;
  const event = await catalog.createEvent({ title: `Jornada ${tag}` });
  const remove = () => catalog.request('DELETE', `/api/events/${event.id}`, { token: catalog.adminToken });

  const first = await remove();
  expect(first.status).toBe(200);
  const deactivated = {
    ...event,
    isActive: false,
    onSale: false,
    ticketTypes: [{ ...event.ticketTypes[0], onSale: false }],
  };
  expect(await first.json()).toEqual(deactivated);
  expect((await catalog.request('GET', `/api/events/${event.id}`)).status).toBe(404);
  expect(await (await catalog.request('GET', `/api/events?q=${tag}`)).json()).toEqual([]);
  const hold = await catalog.request('PUT', `/internal/events/${event.id}/holds/pedido-x`, { body: { quantity: 1 } });
  expect(hold.status).toBe(409);
  expect(await hold.json()).toEqual({ message: 'Evento indisponível para compra' });

  const second = await remove();
  expect(second.status).toBe(200);
  expect(await second.json()).toEqual(deactivated);
  expect((await catalog.changes(event.id)).map((change) => change.isActive)).toEqual([true, false]);
  expect(
    catalog.logs.lines.filter((line) => line.msg === 'event deactivated' && line.eventId === event.id),
  ).toHaveLength(1);
  expect(await catalog.service.db('events').where({ id: event.id }).first()).toMatchObject({ is_active: false });

  // An administrator can bring it back.
  const back = await catalog.request('PATCH', `/api/events/${event.id}`, {
    token: catalog.adminToken,
    body: { isActive: true, date: inDays(20) },
  });
  expect(back.status).toBe(200);
  expect((await catalog.request('GET', `/api/events/${event.id}`)).status).toBe(200);
  expect((await catalog.changes(event.id)).map((change) => change.isActive)).toEqual([true, false, true]);
});
