import { randomUUID } from 'node:crypto';
import type { AdminEventPage, AdminEventView, EventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;
let tokens: Record<'buyer' | 'doorStaff' | 'courtesyManager', string>;

beforeAll(async () => {
  catalog = await startCatalog();
  tokens = {
    buyer: await catalog.sign({}),
    doorStaff: await catalog.sign({ roles: ['doorStaff'] }),
    courtesyManager: await catalog.sign({ roles: ['courtesyManager'] }),
  };
});
afterAll(() => catalog.service.stop());

const admin = (method: string, path: string, body?: unknown) =>
  catalog.request(method, `/api/admin/events${path}`, { token: catalog.adminToken, body });

async function adminCreate(fields: Record<string, unknown> = {}): Promise<AdminEventView> {
  const response = await admin('POST', '', {
    title: `Oficina ${randomUUID()}`,
    description: 'Boas práticas de armazenamento.',
    date: inDays(30),
    location: 'Recife – PE',
    price: '200.00',
    ...fields,
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as AdminEventView;
}

async function list(query: string): Promise<AdminEventPage> {
  const response = await admin('GET', `?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as AdminEventPage;
}

const hold = (eventId: string, holdId: string, quantity = 1) =>
  catalog.request('PUT', `/internal/events/${eventId}/holds/${holdId}`, { body: { quantity } });

test('every new route: anonymous 401; buyer, door staff and courtesy manager 403; administrator allowed', async () => {
  const event = await catalog.createEvent();
  const routes: [string, string, unknown, number][] = [
    ['GET', '/api/admin/events', undefined, 200],
    ['POST', '/api/admin/events', { title: 'Nova', date: inDays(10), location: 'Natal – RN', price: '10.00' }, 201],
    ['GET', `/api/admin/events/${event.id}`, undefined, 200],
    ['PATCH', `/api/admin/events/${event.id}`, { description: 'Nova descrição' }, 200],
    ['POST', `/api/admin/events/${event.id}/duplicate`, undefined, 201],
    // An empty form reaches the image rule only when the caller may upload.
    ['POST', `/api/admin/events/${event.id}/image`, undefined, 422],
  ];
  for (const [method, path, body, adminStatus] of routes) {
    const anonymous = await catalog.request(method, path, { body });
    expect({ method, path, status: anonymous.status }).toEqual({ method, path, status: 401 });
    for (const [role, token] of Object.entries(tokens)) {
      const refused = await catalog.request(method, path, { body, token });
      expect({ method, path, role, status: refused.status, body: await refused.json() }).toEqual({
        method,
        path,
        role,
        status: 403,
        body: { message: 'Acesso restrito a administradores' },
      });
    }
    const allowed = await catalog.request(method, path, { body, token: catalog.adminToken });
    expect({ method, path, status: allowed.status }).toEqual({ method, path, status: adminStatus });
  }
  const row = await catalog.service.db('events').where({ id: event.id }).first();
  expect(row.description).toBe('Nova descrição');
});

test('the list shows every event with its status, sold and held counts, filtered by status and searched', async () => {
  const tag = `s${randomUUID().slice(0, 8)}`;
  const draft = await adminCreate({ title: `Rascunho ${tag}`, location: 'Goiânia – GO' });
  const published = await catalog.createEvent({ title: `Publicado ${tag}`, location: 'Florianópolis – SC' });
  const unlisted = await catalog.createEvent({ title: `Turma fechada ${tag}`, listed: false });
  const past = await catalog.createEvent({ title: `Passado ${tag}`, date: inDays(-3) });
  const deactivated = await catalog.createEvent({ title: `Desativado ${tag}` });
  await catalog.request('DELETE', `/api/events/${deactivated.id}`, { token: catalog.adminToken });
  const soldOut = await catalog.createEvent({ title: `Lotado ${tag}`, maxAttendees: 3 });
  expect((await hold(soldOut.id, `order:${randomUUID()}`, 2)).status).toBe(200);
  expect((await hold(soldOut.id, `courtesy-link:${randomUUID()}`, 1)).status).toBe(200);
  // Spots left, but every type it sells (the hidden one aside) ran out: its one lot, and its capacity.
  const typesSoldOut = await catalog.createEvent({
    title: `Tipos esgotados ${tag}`,
    ticketTypes: [
      { name: 'Profissional', price: '200.00', lots: [{ price: '150.00', quantity: 1 }] },
      { name: 'Estudante', price: '90.00', capacity: 1 },
      { name: 'Convidado', price: '0.00', hidden: true },
    ],
  });
  const [professional, student] = typesSoldOut.ticketTypes;
  const held = await catalog.request('PUT', `/internal/events/${typesSoldOut.id}/holds/order:${randomUUID()}`, {
    body: { quantity: 2, items: [{ ticketTypeId: professional!.id }, { ticketTypeId: student!.id }] },
  });
  expect(held.status).toBe(200);

  const page = await list(`q=${tag}`);
  const statuses = Object.fromEntries(page.events.map((event) => [event.id, event.status]));
  expect(statuses).toEqual({
    [draft.id]: 'rascunho',
    [published.id]: 'publicado',
    [unlisted.id]: 'nao_listado',
    [past.id]: 'encerrado',
    [deactivated.id]: 'encerrado',
    [soldOut.id]: 'esgotado',
    [typesSoldOut.id]: 'esgotado',
  });
  expect(page).toMatchObject({ page: 1, totalPages: 1, total: 7 });
  // Newest date first.
  expect(page.events.map((event) => event.date)).toEqual(
    page.events
      .map((event) => event.date)
      .sort()
      .reverse(),
  );
  expect(page.events.find((event) => event.id === soldOut.id)).toMatchObject({
    maxAttendees: 3,
    currentAttendees: 3,
    remaining: 0,
    sold: 0,
    held: 3,
    published: true,
  });
  expect(page.events.find((event) => event.id === draft.id)).toMatchObject({
    published: false,
    publishedAt: null,
    sold: 0,
    held: 0,
  });

  for (const status of ['rascunho', 'publicado', 'nao_listado'] as const) {
    const filtered = await list(`q=${tag}&status=${status}`);
    expect(filtered.events.map((event) => event.status)).toEqual([status]);
  }
  expect((await list(`q=${tag}&status=esgotado`)).events.map((event) => event.id).sort()).toEqual(
    [soldOut.id, typesSoldOut.id].sort(),
  );
  expect((await list(`q=${tag}&status=encerrado`)).events.map((event) => event.id).sort()).toEqual(
    [past.id, deactivated.id].sort(),
  );

  // Title or location, accents and case aside; the description is not searched.
  expect((await list(`q=goiania%20${tag}`)).events.map((event) => event.id)).toEqual([draft.id]);
  expect((await list(`q=FLORIANOPOLIS%20${tag}`)).events.map((event) => event.id)).toEqual([published.id]);
  expect((await list(`q=armazenamento%20${tag}`)).events).toEqual([]);

  for (const [query, message] of [
    ['status=adiado', 'Situação inválida: use rascunho, publicado, nao_listado, encerrado, esgotado ou cancelado'],
    ['page=0', 'Página inválida'],
    ['page=abc', 'Página inválida'],
    [`q=${'x'.repeat(101)}`, 'Busca deve ter no máximo 100 caracteres'],
  ]) {
    const response = await admin('GET', `?${query}`);
    expect({ query, status: response.status, body: await response.json() }).toEqual({
      query,
      status: 400,
      body: { message },
    });
  }
});

test('the list pages 20 events at a time', async () => {
  const tag = `p${randomUUID().slice(0, 8)}`;
  for (let i = 0; i < 21; i++) await adminCreate({ title: `Página ${tag} ${i}`, date: inDays(10 + i) });
  const first = await list(`q=${tag}`);
  const second = await list(`q=${tag}&page=2`);
  expect([first.events.length, second.events.length, first.totalPages, first.total]).toEqual([20, 1, 2, 21]);
  expect(second.events[0]!.title).toBe(`Página ${tag} 0`);
});

test('a draft stays out of the storefront, its search, detail and calendar, the door and sale until published', async () => {
  const tag = `r${randomUUID().slice(0, 8)}`;
  const draft = await adminCreate({ title: `Simpósio ${tag}`, date: inDays(0.5), maxAttendees: 10 });
  expect(draft).toMatchObject({ status: 'rascunho', published: false, isActive: true, listed: true });
  // The door as administrators see it: every event a door may check in (door staff only see theirs).
  const doorToken = catalog.adminToken;

  const hidden = async () => {
    expect(await (await catalog.request('GET', `/api/events?q=${tag}`)).json()).toEqual([]);
    const listed = (await (await catalog.request('GET', '/api/events')).json()) as EventView[];
    expect(listed.map((event) => event.id)).not.toContain(draft.id);
    expect((await catalog.request('GET', `/api/events/${draft.id}`)).status).toBe(404);
    expect((await catalog.request('GET', `/api/events/${draft.id}/calendar.ics`)).status).toBe(404);
    const door = (await (await catalog.request('GET', '/api/door/events', { token: doorToken })).json()) as {
      id: string;
    }[];
    expect(door.map((event) => event.id)).not.toContain(draft.id);
    const refused = await hold(draft.id, `order:${randomUUID()}`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: 'Evento indisponível para compra' });
  };
  await hidden();
  // A draft created through the integrations' API is just as hidden.
  const apiDraft = await catalog.createEvent({ title: `Outro ${tag}`, published: false });
  expect((await catalog.request('GET', `/api/events/${apiDraft.id}`)).status).toBe(404);
  expect(await catalog.service.db('holds').where({ event_id: draft.id })).toEqual([]);
  expect((await catalog.service.db('events').where({ id: draft.id }).first()).current_attendees).toBe(0);

  const published = await admin('PATCH', `/${draft.id}`, { published: true });
  expect(published.status).toBe(200);
  const view = (await published.json()) as AdminEventView;
  expect(view).toMatchObject({ status: 'publicado', published: true, publishedAt: expect.any(String) });
  expect((await catalog.request('GET', `/api/events/${draft.id}`)).status).toBe(200);
  expect(
    ((await (await catalog.request('GET', `/api/events?q=${tag}`)).json()) as EventView[]).map((e) => e.id),
  ).toEqual([draft.id]);
  const door = (await (await catalog.request('GET', '/api/door/events', { token: doorToken })).json()) as {
    id: string;
  }[];
  expect(door.map((event) => event.id)).toContain(draft.id);
  expect((await hold(draft.id, `order:${randomUUID()}`)).status).toBe(200);

  // Sold or held spots keep it published.
  const back = await admin('PATCH', `/${draft.id}`, { published: false });
  expect(back.status).toBe(409);
  expect(await back.json()).toEqual({
    message: 'Não é possível voltar a rascunho um evento com ingressos vendidos ou reservados',
  });
  // Announced when made and when published; the spot held moved only its count.
  expect((await catalog.changes(draft.id)).map((change) => change.title)).toHaveLength(2);
});

test('the back office creates drafts with dates entered in São Paulo, validated in pt-BR', async () => {
  const created = await adminCreate({ date: '2030-03-15T09:00', price: '0', maxAttendees: 30 });
  expect(created).toMatchObject({
    date: '2030-03-15T12:00:00.000Z',
    localDate: '2030-03-15T09:00',
    price: '0.00',
    status: 'rascunho',
    currentAttendees: 0,
    sold: 0,
    held: 0,
  });
  const withOffset = await adminCreate({ date: '2030-03-15T09:00:00-03:00', published: true });
  expect(withOffset).toMatchObject({ date: '2030-03-15T12:00:00.000Z', status: 'publicado' });
  expect(await catalog.changes(created.id)).toEqual([expect.objectContaining({ eventId: created.id })]);

  const before = await catalog.service.db('events').count({ n: '*' });
  const cases: [Record<string, unknown>, number, string][] = [
    [{ date: inDays(-1) }, 422, 'A data do evento deve estar no futuro'],
    [{ date: '2020-01-10T10:00' }, 422, 'A data do evento deve estar no futuro'],
    [{ date: 'amanhã às 9h' }, 400, 'Data inválida: informe data e hora'],
    [{ date: '2030-02-30T09:00' }, 400, 'Data inválida: use o formato ISO 8601 com fuso horário'],
    [{ price: '-1' }, 400, 'Preço inválido: use um valor como 150.00'],
    [{ title: ' ' }, 400, 'Título é obrigatório'],
    [{ location: undefined }, 400, 'Local é obrigatório'],
    [{ maxAttendees: 0 }, 400, 'Número máximo de participantes deve ser pelo menos 1'],
    [{ published: 'sim' }, 400, 'published deve ser verdadeiro ou falso'],
    [{ currentAttendees: 3 }, 400, 'Campo desconhecido: currentAttendees'],
  ];
  for (const [change, status, message] of cases) {
    const response = await admin('POST', '', {
      title: 'Evento',
      date: inDays(5),
      location: 'Manaus – AM',
      price: '10.00',
      ...change,
    });
    expect({ change, status: response.status, body: await response.json() }).toEqual({
      change,
      status,
      body: { message },
    });
  }
  expect(await catalog.service.db('events').count({ n: '*' })).toEqual(before);
});

test('an edit changes the fields, keeps the search in step and is announced', async () => {
  const event = await adminCreate({ published: true, maxAttendees: 10 });
  const response = await admin('PATCH', `/${event.id}`, {
    title: 'Curso de Validação de Limpeza',
    description: 'Novo conteúdo.',
    date: '2031-06-01T19:30',
    location: 'Curitiba – PR',
    price: '320,50',
    maxAttendees: 12,
    listed: false,
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({
    title: 'Curso de Validação de Limpeza',
    date: '2031-06-01T22:30:00.000Z',
    localDate: '2031-06-01T19:30',
    price: '320.50',
    maxAttendees: 12,
    status: 'nao_listado',
  });
  expect((await list('q=validacao%20de%20limpeza%20curitiba')).events.map((found) => found.id)).toContain(event.id);
  expect((await catalog.changes(event.id)).map((change) => [change.title, change.listed])).toEqual([
    [event.title, true],
    ['Curso de Validação de Limpeza', false],
  ]);
  for (const [id, status] of [
    [randomUUID(), 404],
    ['nao-existe', 404],
  ] as const) {
    const missing = await admin('PATCH', `/${id}`, { title: 'X' });
    expect([missing.status, await missing.json()]).toEqual([status, { message: 'Evento não encontrado' }]);
  }
  const empty = await admin('PATCH', `/${event.id}`, {});
  expect([empty.status, await empty.json()]).toEqual([400, { message: 'Informe ao menos um campo para atualizar' }]);
});

test('the capacity never drops below what is sold or held (real holds); it can be met or raised', async () => {
  const event = await adminCreate({ published: true, maxAttendees: 10 });
  expect((await hold(event.id, `order:${randomUUID()}`, 3)).status).toBe(200);
  expect((await hold(event.id, `courtesy-link:${randomUUID()}`, 2)).status).toBe(200);

  const refused = await admin('PATCH', `/${event.id}`, { maxAttendees: 4, title: 'Não deve mudar' });
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({
    message: 'A capacidade não pode ser menor que os 5 ingressos já vendidos ou reservados',
  });
  expect(await catalog.service.db('events').where({ id: event.id }).first()).toMatchObject({
    max_attendees: 10,
    current_attendees: 5,
    title: event.title,
  });
  const met = await admin('PATCH', `/${event.id}`, { maxAttendees: 5 });
  expect(await met.json()).toMatchObject({ maxAttendees: 5, remaining: 0, status: 'esgotado', held: 5 });
  const raised = await admin('PATCH', `/${event.id}`, { maxAttendees: 8 });
  expect(await raised.json()).toMatchObject({ maxAttendees: 8, remaining: 3, status: 'publicado' });
});

test('a capacity edit racing holds never leaves more spots taken than the capacity', async () => {
  const event = await adminCreate({ published: true, maxAttendees: 20 });
  for (let i = 0; i < 4; i++) expect((await hold(event.id, `order:${randomUUID()}`)).status).toBe(200);

  const holds = Array.from({ length: 12 }, () => hold(event.id, `order:${randomUUID()}`));
  const edits = [6, 8, 10].map((max) => admin('PATCH', `/${event.id}`, { maxAttendees: max }));
  const [holdAnswers, editAnswers] = await Promise.all([Promise.all(holds), Promise.all(edits)]);

  const held = holdAnswers.filter((answer) => answer.status === 200).length;
  expect(holdAnswers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
  expect(editAnswers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
  const row = await catalog.service.db('events').where({ id: event.id }).first();
  const activeHolds = await catalog.service.db('holds').where({ event_id: event.id }).whereNull('released_at');
  expect(row.current_attendees).toBe(4 + held);
  expect(activeHolds).toHaveLength(4 + held);
  expect(row.current_attendees).toBeLessThanOrEqual(row.max_attendees);
  for (const answer of editAnswers.filter((edit) => edit.status === 409)) {
    expect(((await answer.json()) as { message: string }).message).toMatch(
      /^A capacidade não pode ser menor que os \d+ ingressos já vendidos ou reservados$/,
    );
  }
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('duplicating makes a draft with the same fields and image, none of the sales', async () => {
  const original = await adminCreate({
    published: true,
    maxAttendees: 50,
    listed: false,
    imageUrl: '/images/events/workshop.svg',
  });
  expect((await hold(original.id, `order:${randomUUID()}`, 2)).status).toBe(200);

  const response = await admin('POST', `/${original.id}/duplicate`);
  expect(response.status).toBe(201);
  const copy = (await response.json()) as AdminEventView;
  expect(copy).toEqual({
    ...original,
    id: expect.not.stringMatching(original.id),
    title: `Cópia de ${original.title}`,
    status: 'rascunho',
    published: false,
    publishedAt: null,
    // A draft is not on sale until it is published.
    onSale: false,
    // Sessions of its own, at the same times.
    sessions: [{ ...original.sessions[0], id: expect.not.stringMatching(original.sessions[0]!.id) }],
    localSessions: [{ ...original.localSessions[0], id: copy.sessions[0]!.id }],
    // Types of its own, alike, none of their tickets taken.
    ticketTypes: [
      { ...original.ticketTypes[0], id: expect.not.stringMatching(original.ticketTypes[0]!.id), onSale: false },
    ],
    adminTicketTypes: [{ ...original.adminTicketTypes[0], id: copy.ticketTypes[0]!.id, taken: 0 }],
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
  expect(copy).toMatchObject({ currentAttendees: 0, remaining: 50, sold: 0, held: 0 });
  expect((await catalog.request('GET', `/api/events/${copy.id}`)).status).toBe(404);
  expect(await catalog.changes(copy.id)).toHaveLength(1);

  const long = await adminCreate({ title: 'L'.repeat(255) });
  const longCopy = (await (await admin('POST', `/${long.id}/duplicate`)).json()) as AdminEventView;
  expect(longCopy.title).toBe(`Cópia de ${'L'.repeat(246)}`);
  expect((await admin('POST', `/${randomUUID()}/duplicate`)).status).toBe(404);
});

test("an event's image is only one of the product's own: any other address is refused and nothing changes", async () => {
  const uploaded = `/api/events/images/${'0123456789abcdef'.repeat(4)}`;
  const event = await adminCreate({ imageUrl: uploaded });
  expect(event.imageUrl).toBe(uploaded);
  expect((await adminCreate({ imageUrl: '/images/events/workshop-bpf-sao-paulo.svg' })).imageUrl).toBe(
    '/images/events/workshop-bpf-sao-paulo.svg',
  );

  const refused = [
    '//outro-site.com.br/imagem.png',
    'https://cdn.outro-site.com.br/imagem.png',
    'http://127.0.0.1:8080/images/events/workshop.svg',
    'javascript:alert(1)',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    '/api/events/images/nao-e-um-hash',
    `/api/events/images/${'A'.repeat(64)}`,
    '/images/events/../../api/admin/events',
    '/images/events/workshop.svg?x=//outro-site.com.br',
    '/\\outro-site.com.br/imagem.png',
    ' /images/events/workshop.svg',
    '/images/outros/workshop.svg',
    42,
  ];
  for (const imageUrl of refused) {
    for (const [method, path] of [
      ['POST', ''],
      ['PATCH', `/${event.id}`],
    ] as const) {
      const body =
        method === 'POST'
          ? { title: 'Oficina', date: inDays(30), location: 'Recife – PE', price: '200.00', imageUrl }
          : { imageUrl };
      const response = await admin(method, path, body);
      expect({ imageUrl, method, status: response.status, body: await response.json() }).toEqual({
        imageUrl,
        method,
        status: 400,
        body: { message: 'URL da imagem inválida: envie a imagem pelo formulário do evento' },
      });
    }
  }
  const stored = await admin('GET', `/${event.id}`);
  expect(((await stored.json()) as AdminEventView).imageUrl).toBe(uploaded);
  // The database holds the same rule.
  await expect(
    catalog.service.db('events').where({ id: event.id }).update({ image_url: 'https://outro-site.com.br/imagem.png' }),
  ).rejects.toThrow(/events_own_image/);
});
