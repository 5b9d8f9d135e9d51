import { randomUUID } from 'node:crypto';
import { couponMessages, type EventView } from '@ticketing/proto';
import { inDays, json, startCourtesy, waitFor, type Caller, type Courtesy } from './support.ts';

let courtesy: Courtesy;
let buyer: Caller;
beforeAll(async () => {
  courtesy = await startCourtesy();
  buyer = await courtesy.user();
});
afterAll(() => courtesy.stop());

/** A code no other test uses. */
const freshCode = (prefix = 'CUPOM') => `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;

const create = (body: Record<string, unknown>, token = courtesy.admin.token) =>
  courtesy.call('POST', '/api/coupons', { token, body });

async function coupon(body: Record<string, unknown> = {}) {
  const response = await create({ code: freshCode(), percentOff: 10, ...body });
  expect(response.status).toBe(201);
  return json(response);
}

/** A congress selling 'Profissional' and 'Estudante'. */
async function congress(): Promise<EventView> {
  return courtesy.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Estudante', price: '190.00' },
    ],
  });
}

const quote = (code: string, eventId: string, token = buyer.token) =>
  courtesy.call('GET', `/api/coupons/${code}/quote?eventId=${eventId}`, { token });
const take = (orderId: string, code: string, eventId: string, ticketTypeIds: string[]) =>
  courtesy.call('PUT', `/internal/coupon-uses/${orderId}`, { body: { code, eventId, ticketTypeIds } });
const giveBack = (orderId: string) => courtesy.call('DELETE', `/internal/coupon-uses/${orderId}`);
const stored = (couponId: string) => courtesy.service.db('coupons').where({ id: couponId }).first();
const used = async (couponId: string) => (await stored(couponId)).used_count as number;
const useOf = (orderId: string) => courtesy.service.db('coupon_uses').where({ order_id: orderId }).first();

describe('administrators', () => {
  test('make a coupon for an event and some of its types, or for every event', async () => {
    const event = await congress();
    const student = event.ticketTypes[1]!.id;
    const code = freshCode('semana');
    const startsAt = inDays(-1);
    const endsAt = inDays(10);
    const response = await create({
      code: `  ${code.toLowerCase()} `,
      eventId: event.id,
      percentOff: 15,
      maxUses: 50,
      startsAt,
      endsAt,
      ticketTypeIds: [student, student],
    });
    expect(response.status).toBe(201);
    const made = await json(response);
    expect(made).toEqual({
      id: expect.any(String),
      code: code.toUpperCase(),
      eventId: event.id,
      eventTitle: event.title,
      percentOff: 15,
      amountOff: null,
      maxUses: 50,
      usedCount: 0,
      startsAt,
      endsAt,
      ticketTypeIds: [student],
      isActive: true,
      createdAt: expect.any(String),
    });
    expect(await stored(made.id)).toMatchObject({
      code: code.toUpperCase(),
      created_by: courtesy.admin.id,
      ticket_type_ids: [student],
    });

    const everywhere = await coupon({ percentOff: null, amountOff: '25,5' });
    expect(everywhere).toMatchObject({
      eventId: null,
      eventTitle: null,
      percentOff: null,
      amountOff: '25.50',
      maxUses: null,
      startsAt: null,
      endsAt: null,
      ticketTypeIds: [],
    });
  });

  test('list coupons newest first, 20 a page', async () => {
    const made = [];
    for (let i = 0; i < 21; i++) made.push(await coupon());
    const first = await json(await courtesy.call('GET', '/api/coupons', { token: courtesy.admin.token }));
    const total = Number((await courtesy.service.db('coupons').count({ count: '*' }))[0]!.count);
    expect(first.page).toBe(1);
    expect(first.totalPages).toBe(Math.ceil(total / 20));
    expect(first.coupons).toHaveLength(20);
    expect(first.coupons.slice(0, 20)).toEqual(made.slice(1).reverse());
    const second = await json(await courtesy.call('GET', '/api/coupons?page=2', { token: courtesy.admin.token }));
    expect(second.page).toBe(2);
    expect(second.coupons[0]).toEqual(made[0]);

    const wrongPage = await courtesy.call('GET', '/api/coupons?page=0', { token: courtesy.admin.token });
    expect(wrongPage.status).toBe(400);
    expect(await json(wrongPage)).toEqual({ message: 'Página inválida' });
  });

  test.each([
    ['a code too short', { code: 'AB' }, 'O código do cupom deve ter de 3 a 40 letras, números, - ou _.'],
    ['a code with spaces', { code: 'MEU CUPOM' }, 'O código do cupom deve ter de 3 a 40 letras, números, - ou _.'],
    ['no discount', { percentOff: null }, 'Informe o percentual ou o valor do desconto (apenas um deles).'],
    ['two discounts', { amountOff: '10.00' }, 'Informe o percentual ou o valor do desconto (apenas um deles).'],
    ['a percentage of 0', { percentOff: 0 }, 'O percentual de desconto deve ser um número inteiro de 1 a 100.'],
    ['a percentage over 100', { percentOff: 101 }, 'O percentual de desconto deve ser um número inteiro de 1 a 100.'],
    [
      'a fractional percentage',
      { percentOff: 12.5 },
      'O percentual de desconto deve ser um número inteiro de 1 a 100.',
    ],
    ['an amount of zero', { percentOff: null, amountOff: '0,00' }, 'O valor do desconto deve ser maior que zero.'],
    [
      'an amount that is not money',
      { percentOff: null, amountOff: 'dez' },
      'O valor do desconto deve ser maior que zero.',
    ],
    ['no uses', { maxUses: 0 }, 'O limite de usos deve ser um número inteiro de 1 a 100.000.'],
    ['too many uses', { maxUses: 100_001 }, 'O limite de usos deve ser um número inteiro de 1 a 100.000.'],
    [
      'an end before the start',
      { startsAt: inDays(5), endsAt: inDays(1) },
      'O fim da validade deve ser depois do início.',
    ],
    [
      'types without an event',
      { ticketTypeIds: [randomUUID()] },
      'Para limitar o cupom a tipos de ingresso, escolha o evento.',
    ],
    ['a type that is not an id', { eventId: randomUUID(), ticketTypeIds: ['vip'] }, 'Tipos de ingresso inválidos'],
    ['an event that is not an id', { eventId: 'evento' }, 'Evento não encontrado'],
    ['an unknown field', { unknown: 1 }, 'Campo desconhecido: unknown'],
    ['a date that is not one', { startsAt: 'amanhã' }, couponMessages.dateInvalid],
  ])('refuse %s, storing nothing', async (_case, fields, message) => {
    const code = freshCode();
    const response = await create({ code, percentOff: 10, ...fields });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message });
    expect(await courtesy.service.db('coupons').where({ code })).toHaveLength(0);
  });

  test('refuse an event the catalog does not know, types of another event, and a code already taken', async () => {
    const unknown = await create({ code: freshCode(), percentOff: 10, eventId: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ message: 'Evento não encontrado' });

    const [event, other] = [await congress(), await congress()];
    const code = freshCode();
    const otherTypes = await create({
      code,
      percentOff: 10,
      eventId: event.id,
      ticketTypeIds: [event.ticketTypes[0]!.id, other.ticketTypes[0]!.id],
    });
    expect(otherTypes.status).toBe(400);
    expect(await json(otherTypes)).toEqual({ message: 'Tipo de ingresso não encontrado neste evento' });
    expect(await courtesy.service.db('coupons').where({ code })).toHaveLength(0);

    const first = await coupon({ code });
    const twin = await create({ code: code.toLowerCase(), amountOff: '5.00', percentOff: null });
    expect(twin.status).toBe(409);
    expect(await json(twin)).toEqual({ message: 'Já existe um cupom com este código.' });
    expect(await courtesy.service.db('coupons').where({ code })).toEqual([expect.objectContaining({ id: first.id })]);
  });

  test('turn a coupon off and on again', async () => {
    const event = await congress();
    const made = await coupon({ eventId: event.id });
    const patch = (id: string, body: unknown, token = courtesy.admin.token) =>
      courtesy.call('PATCH', `/api/coupons/${id}`, { token, body });

    const off = await patch(made.id, { isActive: false });
    expect(off.status).toBe(200);
    expect(await json(off)).toEqual({ ...made, isActive: false });
    expect(await json(await quote(made.code, event.id))).toEqual({ message: 'Cupom inválido' });
    expect(await json(await patch(made.id, { isActive: true }))).toEqual({ ...made, isActive: true });
    expect((await quote(made.code, event.id)).status).toBe(200);

    for (const id of [randomUUID(), 'cupom']) {
      const missing = await patch(id, { isActive: false });
      expect(missing.status).toBe(404);
      expect(await json(missing)).toEqual({ message: 'Cupom não encontrado' });
    }
    for (const body of [{}, { isActive: 'não' }, { isActive: false, code: 'X' }]) {
      const wrong = await patch(made.id, body);
      expect(wrong.status).toBe(400);
      expect(await json(wrong)).toEqual({ message: 'Dados do cupom inválidos' });
    }
  });

  test('are the only ones who make, list and switch coupons', async () => {
    const made = await coupon();
    const manager = await courtesy.issuer.sign({ id: randomUUID(), roles: ['courtesyManager'], name: 'Gestora' });
    for (const token of [buyer.token, manager]) {
      for (const response of [
        await create({ code: freshCode(), percentOff: 10 }, token),
        await courtesy.call('GET', '/api/coupons', { token }),
        await courtesy.call('PATCH', `/api/coupons/${made.id}`, { token, body: { isActive: false } }),
      ]) {
        expect(response.status).toBe(403);
        expect(await json(response)).toEqual({ message: 'Acesso restrito a administradores' });
      }
    }
    expect((await courtesy.call('GET', '/api/coupons')).status).toBe(401);
    expect((await stored(made.id)).is_active).toBe(true);
  });
});

describe('the checkout quote', () => {
  test('answers what a coupon takes off at its event, in any case, without taking a use', async () => {
    const event = await congress();
    const student = event.ticketTypes[1]!.id;
    const made = await coupon({ eventId: event.id, maxUses: 1, ticketTypeIds: [student] });
    const answer = await quote(made.code.toLowerCase(), event.id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await json(answer)).toEqual({
      couponId: made.id,
      code: made.code,
      percentOff: 10,
      amountOff: null,
      ticketTypeIds: [student],
    });
    expect((await quote(made.code, event.id)).status).toBe(200);
    expect(await used(made.id)).toBe(0);

    const everywhere = await coupon({ percentOff: null, amountOff: '30' });
    expect(await json(await quote(everywhere.code, event.id))).toMatchObject({ amountOff: '30.00', ticketTypeIds: [] });
    expect((await quote(made.code, event.id, '')).status).toBe(401);
  });

  test('refuses unknown, inactive, used up, expired and not yet valid coupons, and other events', async () => {
    const [event, other] = [await congress(), await congress()];
    const refused = async (code: string, eventId: string, status: number, message: string) => {
      const answer = await quote(code, eventId);
      expect({ status: answer.status, body: await json(answer) }).toEqual({ status, body: { message } });
    };
    const valid = await coupon({ eventId: event.id, maxUses: 1 });
    await refused('NAO-EXISTE', event.id, 404, 'Cupom inválido');
    await refused(valid.code, other.id, 404, 'Cupom inválido');
    await refused(valid.code, 'evento', 400, 'Cupom inválido');

    const inactive = await coupon({ eventId: event.id });
    await courtesy.call('PATCH', `/api/coupons/${inactive.id}`, {
      token: courtesy.admin.token,
      body: { isActive: false },
    });
    await refused(inactive.code, event.id, 404, 'Cupom inválido');

    expect((await take(randomUUID(), valid.code, event.id, [event.ticketTypes[0]!.id])).status).toBe(200);
    await refused(valid.code, event.id, 409, 'Cupom esgotado');

    const expired = await coupon({ startsAt: inDays(-10), endsAt: inDays(-1) });
    await refused(expired.code, event.id, 422, 'Cupom expirado');
    const early = await coupon({ startsAt: inDays(2) });
    await refused(early.code, event.id, 422, 'Este cupom ainda não está valendo.');
  });
});

describe('orders taking uses', () => {
  test('an order takes one use, once however often it asks; given back, it is available again', async () => {
    const event = await congress();
    const types = event.ticketTypes.map((type) => type.id);
    const made = await coupon({ eventId: event.id, maxUses: 1, percentOff: null, amountOff: '20.00' });
    const orderId = randomUUID();
    const expected = { couponId: made.id, code: made.code, percentOff: null, amountOff: '20.00', ticketTypeIds: [] };
    for (let i = 0; i < 3; i++) {
      const answer = await take(orderId, made.code.toLowerCase(), event.id, types);
      expect(answer.status).toBe(200);
      expect(await json(answer)).toEqual(expected);
    }
    expect(await used(made.id)).toBe(1);

    const someoneElse = randomUUID();
    expect((await take(someoneElse, made.code, event.id, types)).status).toBe(409);
    expect(await json(await giveBack(orderId))).toEqual({ released: true });
    expect(await json(await giveBack(orderId))).toEqual({ released: false });
    expect(await used(made.id)).toBe(0);
    expect(await useOf(orderId)).toMatchObject({ coupon_id: made.id, released_at: expect.any(Date) });

    expect((await take(someoneElse, made.code, event.id, types)).status).toBe(200);
    expect(await used(made.id)).toBe(1);
    // The order that gave its use back asks again: it is taken again when one is left, and none is.
    const again = await take(orderId, made.code, event.id, types);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ message: 'Cupom esgotado' });
    expect(await useOf(orderId)).toMatchObject({ released_at: expect.any(Date) });
    await giveBack(someoneElse);
    expect(await json(await take(orderId, made.code, event.id, types))).toEqual(expected);
    expect(await useOf(orderId)).toMatchObject({ released_at: null });
    expect(await used(made.id)).toBe(1);

    const malformed = await giveBack('pedido');
    expect(malformed.status).toBe(404);
    expect(await json(malformed)).toEqual({ message: 'Cupom inválido' });
  });

  test('a refused order takes nothing: invalid, expired, not yet valid, other types, used up', async () => {
    const event = await congress();
    const [professional, student] = event.ticketTypes.map((type) => type.id) as [string, string];
    const studentsOnly = await coupon({ eventId: event.id, ticketTypeIds: [student], maxUses: 5 });
    const usedUp = await coupon({ eventId: event.id, maxUses: 1 });
    await take(randomUUID(), usedUp.code, event.id, [professional]);
    const expired = await coupon({ endsAt: inDays(-1) });
    const early = await coupon({ startsAt: inDays(1) });

    for (const [code, types, status, message] of [
      ['NAO-EXISTE', [professional], 404, 'Cupom inválido'],
      [expired.code, [professional], 422, 'Cupom expirado'],
      [early.code, [professional], 422, 'Este cupom ainda não está valendo.'],
      [studentsOnly.code, [professional], 422, 'Este cupom não vale para os ingressos escolhidos.'],
      [usedUp.code, [professional], 409, 'Cupom esgotado'],
    ] as const) {
      const orderId = randomUUID();
      const answer = await take(orderId, code, event.id, [...types]);
      expect({ code, status: answer.status, body: await json(answer) }).toEqual({ code, status, body: { message } });
      expect(await useOf(orderId)).toBeUndefined();
    }
    expect(await used(studentsOnly.id)).toBe(0);
    expect(await used(usedUp.id)).toBe(1);
    for (const id of [expired.id, early.id]) expect(await used(id)).toBe(0);

    const mixed = await take(randomUUID(), studentsOnly.code, event.id, [professional, student]);
    expect(mixed.status).toBe(200);
    expect(await used(studentsOnly.id)).toBe(1);
    const noTypes = await take(randomUUID(), studentsOnly.code, event.id, []);
    expect(noTypes.status).toBe(400);
  });

  test('10 orders at once for a coupon of 2 uses: exactly 2 take one, the others hear it is used up', async () => {
    const event = await congress();
    const made = await coupon({ eventId: event.id, maxUses: 2 });
    const types = [event.ticketTypes[0]!.id];
    const orders = Array.from({ length: 10 }, () => randomUUID());
    const answers = await Promise.all(orders.map((orderId) => take(orderId, made.code, event.id, types)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(8);
    for (const answer of answers.filter((answer) => answer.status === 409)) {
      expect(await json(answer)).toEqual({ message: 'Cupom esgotado' });
    }
    expect(await used(made.id)).toBe(2);
    const uses = await courtesy.service.db('coupon_uses').where({ coupon_id: made.id });
    expect(uses.map((use) => use.order_id).sort()).toEqual(orders.filter((_, i) => statuses[i] === 200).sort());
  });

  test('the same order asking many times at once for the last use takes it once', async () => {
    const event = await congress();
    const made = await coupon({ eventId: event.id, maxUses: 1 });
    const orderId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => take(orderId, made.code, event.id, [event.ticketTypes[0]!.id])),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await used(made.id)).toBe(1);
  });
});

describe('orders that end unpaid, or are paid late', () => {
  const paid = (orderId: string, event: EventView) =>
    courtesy.publish('order.paid', {
      orderId,
      orderNumber: '000321',
      userId: buyer.id,
      eventId: event.id,
      amount: '175.50',
      paidAt: new Date().toISOString(),
      buyer: { name: 'Ana', email: 'ana@example.com' },
      event: { title: event.title, date: event.date, location: event.location },
      courtesyLinkId: null,
    });
  const ended = (type: 'order.cancelled' | 'order.expired', orderId: string, event: EventView) =>
    courtesy.publish(type, { orderId, eventId: event.id, userId: buyer.id, paymentId: null });

  test('an expired or cancelled order gives its use back once, even when the event comes twice', async () => {
    const event = await congress();
    const types = [event.ticketTypes[0]!.id];
    const made = await coupon({ eventId: event.id, maxUses: 2 });
    const [expired, cancelled, waiting] = [randomUUID(), randomUUID(), randomUUID()];
    await take(expired, made.code, event.id, types);
    await take(cancelled, made.code, event.id, types);
    expect((await take(waiting, made.code, event.id, types)).status).toBe(409);

    for (const sent of [
      await ended('order.expired', expired, event),
      await ended('order.expired', expired, event),
      await ended('order.cancelled', cancelled, event),
    ]) {
      await courtesy.handled(sent);
    }
    expect(await used(made.id)).toBe(0);
    expect((await take(waiting, made.code, event.id, types)).status).toBe(200);
    expect(await used(made.id)).toBe(1);
  });

  test('an order paid after giving its use back takes it again; with none left the payment stands', async () => {
    const event = await congress();
    const types = [event.ticketTypes[0]!.id];
    const made = await coupon({ eventId: event.id, maxUses: 1 });
    const late = randomUUID();
    await take(late, made.code, event.id, types);
    await courtesy.handled(await ended('order.expired', late, event));
    expect(await used(made.id)).toBe(0);

    await courtesy.handled(await paid(late, event));
    await courtesy.handled(await paid(late, event));
    expect(await used(made.id)).toBe(1);
    expect(await useOf(late)).toMatchObject({ coupon_id: made.id, released_at: null });

    // The use went to another order meanwhile: the late payment is counted in the log, not against the cap.
    await giveBack(late);
    expect((await take(randomUUID(), made.code, event.id, types)).status).toBe(200);
    await courtesy.handled(await paid(late, event));
    expect(await used(made.id)).toBe(1);
    expect(await useOf(late)).toMatchObject({ released_at: expect.any(Date) });
    await waitFor(() =>
      courtesy.logs.lines.some(
        (line) => line.msg === 'late coupon payment beyond the coupon uses' && line.orderId === late,
      ),
    );
    // A paid order that never had a coupon leaves every coupon as it was.
    await courtesy.handled(await paid(randomUUID(), event));
    expect(await used(made.id)).toBe(1);
  });

  test('a change of the event reaches the coupons made for it', async () => {
    const event = await congress();
    const made = await coupon({ eventId: event.id });
    const changed = await fetch(`${courtesy.catalog.url}/api/events/${event.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${courtesy.admin.token}` },
      body: JSON.stringify({ title: 'Congresso renomeado' }),
    });
    expect(changed.status).toBe(200);
    await waitFor(async () => (await stored(made.id)).event_title === 'Congresso renomeado');
  });
});
