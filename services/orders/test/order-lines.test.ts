import { randomUUID } from 'node:crypto';
import { orderItemMessages, type OrderView } from '@ticketing/proto';
import { backOffice } from './back-office-support.ts';
import { bought, inDays, json, makeCpf, paymentConfirmed, startOrders, type Buyer, type Harness } from './support.ts';

let h: Harness;
let bo: ReturnType<typeof backOffice>;

beforeAll(async () => {
  h = await startOrders();
  bo = backOffice(h);
});
afterAll(() => h.stop());

// Its first type: an event made without types sells one, 'Ingresso' (named by the event's id before types existed).
const typeOf = (event: { id: string; ticketTypes: { id: string }[] }) => event.ticketTypes[0]?.id ?? event.id;

const someone = (name: string) => ({
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}.${randomUUID().slice(0, 6)}@exemplo.com.br`,
});

const changeHolder = (who: Buyer, orderId: string, index: number | string, body: unknown) =>
  h.request('PUT', `/api/orders/${orderId}/items/${index}/holder`, { token: who.token, body });

const listed = async (who: Buyer, orderId: string): Promise<OrderView> =>
  (await json(await h.request('GET', '/api/orders', { token: who.token }))).orders.find(
    (order: OrderView) => order.id === orderId,
  );

/** A paid order of three tickets: the buyer's own, and two named holders. */
async function paidOrderOfThree(fields: Record<string, unknown> = {}) {
  const event = await h.createEvent({ price: '120.00', maxAttendees: 20, ...fields });
  const who = await h.buyer({ name: 'Beatriz Campos Reis' });
  const colleague = someone('Ana Souza Lima');
  const friend = { ...someone('Caio Mendes Prado'), cpf: makeCpf() };
  const response = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    items: [
      { ticketTypeId: typeOf(event) },
      { ticketTypeId: typeOf(event), holder: colleague },
      { ticketTypeId: typeOf(event), holder: friend },
    ],
  });
  expect(response.status).toBe(201);
  const { order } = await json(response);
  await paymentConfirmed(h, order.id);
  return { event, who, colleague, friend, order };
}

test('an order of three tickets: one spot each, a line each with its holder, amount = Σ prices + R$ 5,00 each', async () => {
  const event = await h.createEvent({ price: '120.00', maxAttendees: 20 });
  const who = await h.buyer({ name: 'Beatriz Campos Reis' });
  const colleague = someone('Ana Souza Lima');
  const response = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    items: [{ ticketTypeId: typeOf(event) }, { ticketTypeId: typeOf(event), holder: colleague }],
  });
  expect(response.status).toBe(201);
  const { order, payment } = await json(response);
  expect(order).toMatchObject({ amount: '250.00', totalAmount: '250.00', status: 'pending' });
  expect(order.items).toEqual([
    expect.objectContaining({ index: 0, price: '120.00', holderName: who.name, holderEmail: who.email }),
    expect.objectContaining({ index: 1, price: '120.00', holderName: colleague.name, holderEmail: colleague.email }),
  ]);
  expect(payment).toMatchObject({ pixPayload: expect.stringMatching(/^000201/) });

  // Two spots under the order's one hold; one charge of the total, its description listing the tickets.
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 2 });
  expect(await h.holds(event.id)).toEqual([expect.objectContaining({ id: `order:${order.id}`, quantity: 2 })]);
  const charge = h.payments.charges.get(order.id)!.request;
  expect(charge).toMatchObject({ amount: '250.00' });
  expect(charge.description).toBe(`2× Ingresso – pedido ${order.orderNumber} – ${event.title}`);

  // Stored line by line; order.created carries them, holders with a CPF only where known.
  expect(await h.orders.db('order_items').where({ order_id: order.id }).orderBy('index')).toEqual([
    expect.objectContaining({ index: 0, price: '120.00', holder_email: who.email, holder_cpf: who.cpf }),
    expect.objectContaining({ index: 1, price: '120.00', holder_email: colleague.email, holder_cpf: null }),
  ]);
  const [created] = await h.events('order.created', order.id);
  expect(created!.items).toEqual([
    expect.objectContaining({ index: 0, holder: { name: who.name, email: who.email, cpf: who.cpf } }),
    expect.objectContaining({ index: 1, holder: { ...colleague, cpf: null } }),
  ]);

  // Paid: order.paid carries each ticket for tickets to issue.
  await paymentConfirmed(h, order.id);
  const [paid] = await h.events('order.paid', order.id);
  expect(paid!.items).toEqual(created!.items);
});

test('more than 10 tickets, none, or a holder with a bad e-mail are 400 in Portuguese; nothing is held', async () => {
  const event = await h.createEvent({ maxAttendees: 20 });
  const who = await h.buyer();
  const item = { ticketTypeId: typeOf(event) };
  const cases: [unknown[], string][] = [
    [Array.from({ length: 11 }, () => item), orderItemMessages.tooManyTickets],
    [[], orderItemMessages.tooFewTickets],
    [[{ ...item, holder: { name: 'Ana Souza', email: 'nao-e-email' } }], expect.any(String)],
    [[{ ticketTypeId: 'nao-e-tipo' }], orderItemMessages.ticketTypeInvalid],
  ];
  for (const [items, message] of cases) {
    const response = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', items });
    expect({ status: response.status, body: await json(response) }).toEqual({ status: 400, body: { message } });
  }
  expect(await h.holds(event.id)).toEqual([]);
  expect(await h.ordersOf(who.id)).toEqual([]);
});

test('a promotional code is for an order of one ticket: two tickets with a code are 422, before anyone is asked', async () => {
  const event = await h.createEvent({ price: '150.00', maxAttendees: 10 });
  const link = h.courtesy.addLink({ eventId: event.id, overridePrice: '80.00', ticketCount: 5 });
  const who = await h.buyer();
  const two = [{ ticketTypeId: typeOf(event) }, { ticketTypeId: typeOf(event), holder: someone('Ana Souza Lima') }];
  const refused = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code, items: two });
  expect(refused.status).toBe(422);
  expect(await json(refused)).toEqual({ message: orderItemMessages.promoOneTicket });
  expect(h.courtesy.calls.filter((call) => call.code === link.code)).toEqual([]);
  expect(await h.holds(event.id)).toEqual([]);

  // One ticket with the code: the code's price replaces the ticket's.
  const one = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    promoCode: link.code,
    items: [{ ticketTypeId: typeOf(event), holder: someone('Ana Souza Lima') }],
  });
  expect(one.status).toBe(201);
  const { order } = await json(one);
  expect(order).toMatchObject({ amount: '85.00', items: [expect.objectContaining({ price: '80.00' })] });
});

test('ten identical purchases at once: one order, one hold, one charge; every answer is that order', async () => {
  const event = await h.createEvent({ maxAttendees: 20 });
  const who = await h.buyer();
  const key = randomUUID();
  const body = { eventId: event.id, paymentMethod: 'pix', items: [{ ticketTypeId: typeOf(event) }] };
  const responses = await Promise.all(Array.from({ length: 10 }, () => h.buy(who, body, { 'idempotency-key': key })));
  const answers = await Promise.all(
    responses.map(async (response) => [response.status, await json(response)] as const),
  );

  const rows = await h.ordersOf(who.id);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(answers.map(([status]) => status).sort()).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201]);
  for (const [, answer] of answers) {
    expect(answer.order).toMatchObject({ id: row.id, asaasPaymentId: row.asaas_payment_id });
    expect(answer.payment).toMatchObject({ pixPayload: expect.stringMatching(/^000201/) });
  }
  expect(await h.holds(event.id)).toHaveLength(1);
  expect(h.payments.calls.filter((call) => call.action === 'charge' && call.orderId === row.id)).toHaveLength(1);
  expect(h.payments.calls.filter((call) => call.action === 'charge')).toHaveLength(
    new Set(h.payments.calls.filter((call) => call.action === 'charge').map((call) => call.orderId)).size,
  );
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});

test('a twin still being made by another replica is answered "in progress" at once, without waiting for it', async () => {
  const event = await h.createEvent({ maxAttendees: 20 });
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);
  // As a request elsewhere leaves it between recording the order and storing its charge.
  await h.orders.db('orders').where({ id: order.id }).update({ asaas_payment_id: null, created_at: new Date() });
  const started = Date.now();
  const twin = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' });
  expect(twin.status).toBe(409);
  expect(await json(twin)).toEqual({
    message: 'Seu pedido ainda está sendo processado. Tente novamente em instantes.',
  });
  expect(Date.now() - started).toBeLessThan(2000);
  expect(await h.ordersOf(who.id)).toHaveLength(1);
});

test('the buyer hands a ticket to another holder: the line changes and order.holder-changed is written with it', async () => {
  const { event, who, colleague, order } = await paidOrderOfThree();
  const newcomer = { ...someone('Davi Rezende Costa'), cpf: makeCpf() };

  const response = await changeHolder(who, order.id, 1, newcomer);
  expect(response.status).toBe(200);
  const answer = await json(response);
  expect(answer.message).toBe(orderItemMessages.holderChanged);
  expect(answer.order.items[1]).toMatchObject({ index: 1, holderName: newcomer.name, holderEmail: newcomer.email });
  expect(answer.order.items[0]).toMatchObject({ holderEmail: who.email, canChangeHolder: true });
  expect(await h.orders.db('order_items').where({ order_id: order.id, index: 1 }).first()).toMatchObject({
    holder_name: newcomer.name,
    holder_email: newcomer.email,
    holder_cpf: newcomer.cpf,
  });
  expect(await h.events('order.holder-changed', order.id)).toEqual([
    {
      type: 'order.holder-changed',
      orderId: order.id,
      orderNumber: order.orderNumber,
      userId: who.id,
      eventId: event.id,
      item: expect.objectContaining({ index: 1, holder: newcomer }),
      previous: { ...colleague, cpf: null },
      changedAt: expect.any(String),
    },
  ]);
  expect((await listed(who, order.id)).items[1]).toMatchObject({ holderName: newcomer.name });
});

test('only the buyer, only a paid order, only a line it has, only until 48 h before the event', async () => {
  const { who, order } = await paidOrderOfThree();
  const newcomer = someone('Davi Rezende Costa');
  const stranger = await h.buyer();
  const answer = async (response: Response) => ({ status: response.status, body: await json(response) });

  expect(await answer(await changeHolder(stranger, order.id, 0, newcomer))).toEqual({
    status: 404,
    body: { message: 'Pedido não encontrado' },
  });
  for (const index of [3, 10, -1, 'x']) {
    expect(await answer(await changeHolder(who, order.id, index, newcomer))).toEqual({
      status: 404,
      body: { message: orderItemMessages.itemNotFound },
    });
  }
  expect((await answer(await changeHolder(who, order.id, 0, { name: 'A' }))).status).toBe(400);

  const pending = await bought(h, who, (await h.createEvent()).id);
  expect(await answer(await changeHolder(who, pending.order.id, 0, newcomer))).toEqual({
    status: 409,
    body: { message: orderItemMessages.holderChangeNotPaid },
  });

  const soon = await h.createEvent({ date: inDays(1.5) });
  const { order: late } = await bought(h, who, soon.id);
  await paymentConfirmed(h, late.id);
  expect(await answer(await changeHolder(who, late.id, 0, newcomer))).toEqual({
    status: 409,
    body: { message: orderItemMessages.holderChangeClosed },
  });
  expect((await listed(who, late.id)).items[0]).toMatchObject({ canChangeHolder: false });
  for (const refused of [order.id, pending.order.id, late.id]) {
    expect(await h.events('order.holder-changed', refused)).toEqual([]);
  }
});

test('two holder changes of one ticket at once: made one after the other, the last stands, two events', async () => {
  const { who, order } = await paidOrderOfThree();
  const first = someone('Davi Rezende Costa');
  const second = someone('Eva Lima Torres');
  const answers = await Promise.all([changeHolder(who, order.id, 2, first), changeHolder(who, order.id, 2, second)]);
  expect(answers.map((response) => response.status)).toEqual([200, 200]);

  const events = await h.events('order.holder-changed', order.id);
  expect(events).toHaveLength(2);
  const [earlier, later] = events as { item: { holder: { email: string } }; previous: { email: string } }[];
  // Serialised: the later change names the earlier one's holder as the one before.
  expect(later!.previous.email).toBe(earlier!.item.holder.email);
  const line = await h.orders.db('order_items').where({ order_id: order.id, index: 2 }).first();
  expect(line.holder_email).toBe(later!.item.holder.email);
});

test('each ticket shows its own QR once issued; a reissue to a new holder replaces it; admissions are per ticket', async () => {
  const { who, order } = await paidOrderOfThree();
  const tickets = [randomUUID(), randomUUID(), randomUUID()];
  const issue = (itemIndex: number, ticketId: string, qr: string) =>
    h.publish('ticket.issued', {
      ticketId,
      orderId: order.id,
      orderNumber: order.orderNumber,
      userId: who.id,
      eventId: order.id,
      itemIndex,
      qrText: `qr-${qr}`,
      qrCodeData: `data:image/png;base64,${qr}`,
      buyer: { name: who.name, email: who.email },
      event: { title: 'Evento', date: new Date().toISOString(), location: 'BH' },
    });
  for (const [index, ticketId] of tickets.entries()) await h.handled(await issue(index, ticketId, `qr${index}`));
  await h.handled(
    await h.publish('ticket.checked-in', {
      ticketId: tickets[1]!,
      orderId: order.id,
      eventId: order.id,
      sessionId: order.id,
      usedAt: new Date().toISOString(),
      scannedBy: randomUUID(),
    }),
  );
  let view = await listed(who, order.id);
  expect(view.items.map((item) => [item.ticketId, item.qrCodeData, item.qrCodeUsed])).toEqual([
    [tickets[0], 'data:image/png;base64,qr0', false],
    [tickets[1], 'data:image/png;base64,qr1', true],
    [tickets[2], 'data:image/png;base64,qr2', false],
  ]);
  expect(view).toMatchObject({ qrCodeData: 'data:image/png;base64,qr0', qrCodeUsed: false, canWithdraw: false });

  await h.handled(await issue(2, tickets[2]!, 'reissued'));
  view = await listed(who, order.id);
  expect(view.items[2]).toMatchObject({ qrCodeData: 'data:image/png;base64,reissued' });
  expect(await h.orders.db('ticket_views').where({ order_id: order.id })).toHaveLength(3);
});

test('a withdrawal and an administrator refund are of the whole order, all its tickets', async () => {
  const { who, order } = await paidOrderOfThree();
  const withdrawn = await h.request('POST', `/api/orders/${order.id}/withdraw`, { token: who.token });
  expect(withdrawn.status).toBe(202);
  const [asked] = await h.events('order.withdrawal-requested', order.id);
  expect(asked).toMatchObject({ orderId: order.id });
  expect((await json(withdrawn)).order.items).toHaveLength(3);

  const other = await paidOrderOfThree();
  const refund = await h.request('POST', `/api/admin/orders/${other.order.id}/refund`, {
    token: h.adminToken,
    body: { reason: 'Evento remarcado' },
  });
  expect(refund.status).toBe(202);
  const refunded = await json(refund);
  expect(refunded.order).toMatchObject({ status: 'refunded', amount: '375.00' });
  expect(refunded.order.items).toHaveLength(3);
  expect(h.payments.callsFor(other.order.id, 'refund')).toHaveLength(1);
});

test('the back office: an order shows its tickets, is found by a holder, and one event sells tickets by type', async () => {
  const { event, colleague, friend, order } = await paidOrderOfThree();
  const opened = await json(await bo.asAdmin(`/api/admin/orders/${order.id}`));
  expect(opened.order.items.map((item: { holderName: string }) => item.holderName)).toEqual([
    'Beatriz Campos Reis',
    colleague.name,
    friend.name,
  ]);

  for (const q of [colleague.email.slice(0, 12), 'caio prado']) {
    const found = await json(await bo.asAdmin(`/api/admin/orders?q=${encodeURIComponent(q)}`));
    expect(found.orders.map((row: { id: string }) => row.id)).toContain(order.id);
  }

  const sales = await json(await bo.asAdmin(`/api/admin/sales?eventId=${event.id}`));
  // Tickets count each line; orders count once.
  expect(sales).toMatchObject({ tickets: { paid: 3, courtesy: 0 }, orders: { byMethod: { pix: 1 } } });
  expect(sales.perType).toEqual([
    {
      ticketTypeId: typeOf(event),
      typeName: 'Ingresso',
      tickets: 3,
      gross: '360.00',
      perLot: [{ lotName: null, tickets: 3, gross: '360.00' }],
    },
  ]);
});

test("a deleted account: the tickets its buyer held lose the person, in the lines and the events; others' stay", async () => {
  const { who, colleague, friend, order } = await paidOrderOfThree();
  // The buyer takes the colleague's ticket for themselves: the change names both.
  expect((await changeHolder(who, order.id, 1, { name: who.name, email: who.email })).status).toBe(200);
  await h.handled(await h.publish('user.deleted', { userId: who.id }));

  const stored = JSON.stringify([
    await h.orders.db('order_items').where({ order_id: order.id }),
    await h.orders.db('outbox').where({ key: order.id }),
  ]);
  for (const value of [who.name, who.email, who.cpf!]) expect(stored).not.toContain(value);
  const lines = await h.orders.db('order_items').where({ order_id: order.id }).orderBy('index');
  expect(lines.map((line) => line.holder_email)).toEqual([
    expect.stringMatching(/^removido/),
    expect.stringMatching(/^removido/),
    friend.email,
  ]);
  const [changed] = await h.events('order.holder-changed', order.id);
  expect(changed).toMatchObject({ previous: { ...colleague, cpf: null } });
});
