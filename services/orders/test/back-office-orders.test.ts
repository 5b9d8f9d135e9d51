import { randomUUID } from 'node:crypto';
import { backOfficeMessages, maskCpf, refundReasonLabels, type AdminOrderAnswer } from '@ticketing/proto';
import { expireOverdueOrders } from '../src/index.ts';
import { backOffice } from './back-office-support.ts';
import { bought, json, startOrders, type Harness } from './support.ts';

/** The back office's order search and an order's timeline. */
let h: Harness;
let bo: ReturnType<typeof backOffice>;

beforeAll(async () => {
  h = await startOrders();
  bo = backOffice(h);
});
afterAll(() => h.stop());

/** Letters no other buyer's name or e-mail has, so each search finds only this test's orders. */
const tag = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

const search = async (q: string, page = 1) => {
  const response = await bo.asAdmin(`/api/admin/orders?q=${encodeURIComponent(q)}&page=${page}`);
  expect(response.status).toBe(200);
  return json(response);
};
const idsFound = async (q: string) => (await search(q)).orders.map((row: { id: string }) => row.id);

test('orders are found by id, number, e-mail, CPF (with or without its dots) and name (accents and case ignored)', async () => {
  const mark = tag();
  const who = await h.buyer({ name: `Maria Conceição Brandão ${mark}`, email: `M.Brandao.${mark}@Exemplo.com.br` });
  const concert = await h.createEvent();
  const lecture = await h.createEvent();
  const first = (await bought(h, who, concert.id, 'pix')).order;
  const second = (await bought(h, who, lecture.id, 'boleto')).order;
  const digits = who.cpf!.replace(/\D/g, '');

  // Every order of the buyer, newest first.
  for (const q of [
    `conceicao ${mark}`,
    `BRANDÃO ${mark.toUpperCase()}`,
    `maria ${mark.slice(0, 5)}`,
    `m.brandao.${mark}@exemplo.com.br`,
    `${mark}@EXEMPLO`,
    who.cpf!,
    digits,
  ]) {
    expect(await idsFound(q)).toEqual([second.id, first.id]);
  }
  // One order by its id or its number, however it is typed.
  const number = first.orderNumber;
  for (const q of [first.id, first.id.toUpperCase(), number, number.toLowerCase(), String(Number(number.slice(3)))]) {
    expect(await idsFound(q)).toContain(first.id);
    expect(await idsFound(q)).not.toContain(second.id);
  }

  // What a line shows: the buyer with the CPF masked, the event as sold.
  expect((await search(first.id)).orders).toEqual([
    {
      id: first.id,
      orderNumber: number,
      status: 'pending',
      paymentMethod: 'pix',
      amount: '155.00',
      createdAt: expect.any(String),
      buyer: { userId: who.id, name: who.name, email: who.email, cpf: maskCpf(who.cpf) },
      event: { id: concert.id, title: concert.title, date: new Date(concert.date).toISOString() },
      company: null,
    },
  ]);
  expect((await search(first.id)).orders[0].buyer.cpf).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);

  // Nothing matches: an empty page, still one page. LIKE's wildcards are plain characters.
  for (const q of [`ninguem ${mark}`, randomUUID(), '%', '_%_', '999.999.999-99']) {
    expect(await search(q)).toEqual({ orders: [], total: 0, totalPages: 1 });
  }
  // No search lists every order, newest first, twenty per page.
  const everything = await search('');
  expect(everything.orders.slice(0, 2).map((row: { id: string }) => row.id)).toEqual([second.id, first.id]);
  expect(everything.totalPages).toBe(Math.max(1, Math.ceil(everything.total / 20)));
  expect((await search(`conceicao ${mark}`, 2)).orders).toEqual([]);
});

test('an order tells its story: created, charged, paid, ticket issued, e-mail sent, checked in, refunded', async () => {
  const who = await h.buyer();
  const event = await h.createEvent();
  const { order } = await bought(h, who, event.id, 'credit_card');
  await bo.pay(order.id, { netValue: '147.36' });
  const row = await h.orderRow(order.id);
  await h.handled(
    await h.publish('ticket.issued', {
      ticketId: randomUUID(),
      orderId: order.id,
      orderNumber: order.orderNumber,
      userId: who.id,
      eventId: event.id,
      qrText: 'assinado',
      qrCodeData: 'data:image/png;base64,iVBORw0KGgo=',
      buyer: { name: who.name, email: who.email },
      event: { title: event.title, date: event.date, location: event.location },
    }),
  );
  const emailId = randomUUID();
  await h.handled(
    await h.publish('mail.sent', {
      emailId,
      orderId: order.id,
      template: 'ticket',
      subject: `Seu ingresso: ${event.title}`,
      sentAt: new Date().toISOString(),
    }),
  );
  await bo.checkIn(order.id);
  const refund = await h.request('POST', `/api/admin/orders/${order.id}/refund`, {
    token: h.adminToken,
    body: { reason: 'Evento remarcado' },
  });
  expect(refund.status).toBe(202);

  const response = await bo.asAdmin(`/api/admin/orders/${order.id}`);
  expect(response.status).toBe(200);
  const answer = (await json(response)) as AdminOrderAnswer;
  expect(answer.timeline.map((entry) => entry.kind)).toEqual([
    'created',
    'charged',
    'paid',
    'ticket_issued',
    'email_sent',
    'checked_in',
    'refund_requested',
    'refunded',
  ]);
  const times = answer.timeline.map((entry) => Date.parse(entry.at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(answer.timeline).toEqual([
    { kind: 'created', at: row.created_at.toISOString(), detail: null },
    { kind: 'charged', at: expect.any(String), detail: row.asaas_payment_id },
    { kind: 'paid', at: row.paid_at.toISOString(), detail: null },
    { kind: 'ticket_issued', at: expect.any(String), detail: null },
    { kind: 'email_sent', at: expect.any(String), detail: `Seu ingresso: ${event.title}` },
    { kind: 'checked_in', at: expect.any(String), detail: null },
    { kind: 'refund_requested', at: expect.any(String), detail: 'Evento remarcado' },
    { kind: 'refunded', at: expect.any(String), detail: refundReasonLabels.refund },
  ]);
  expect(answer.order).toMatchObject({
    id: order.id,
    status: 'refunded',
    eventId: event.id,
    netAmount: '147.36',
    buyer: { userId: who.id, name: who.name, email: who.email, cpf: maskCpf(who.cpf) },
    refund: { reason: 'refund', pending: false },
  });
});

test('cancelled, expired, courtesy and reset tickets show on the timeline too', async () => {
  const event = await h.createEvent();
  const quitter = await h.buyer();
  const { order: cancelled } = await bought(h, quitter, event.id, 'pix');
  await h.request('DELETE', `/api/orders/${cancelled.id}/cancel`, { token: quitter.token });
  const kinds = async (id: string) =>
    ((await json(await bo.asAdmin(`/api/admin/orders/${id}`))) as AdminOrderAnswer).timeline.map((entry) => entry.kind);
  expect(await kinds(cancelled.id)).toEqual(['created', 'charged', 'cancelled']);

  const { order: unpaid } = await bought(h, await h.buyer(), event.id, 'pix');
  await h.orders
    .db('orders')
    .where({ id: unpaid.id })
    .update({ expires_at: new Date(Date.now() - 60_000) });
  expect(await expireOverdueOrders({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger })).toContain(
    unpaid.id,
  );
  expect(await kinds(unpaid.id)).toEqual(['created', 'charged', 'expired']);

  const guest = await bo.courtesy(await h.buyer(), event);
  await bo.checkIn(guest);
  await bo.reset(guest);
  await bo.checkIn(guest);
  expect(await kinds(guest)).toEqual(['created', 'paid', 'checked_in', 'reset', 'checked_in']);
  // The first check-in is kept: a reset lets the guest in again without undoing that they came.
  const row = await h.orderRow(guest);
  const { timeline } = (await json(await bo.asAdmin(`/api/admin/orders/${guest}`))) as AdminOrderAnswer;
  const checkIns = timeline.filter((entry) => entry.kind === 'checked_in').map((entry) => Date.parse(entry.at));
  expect(row.first_checked_in_at.getTime()).toBe(checkIns[0]);
  expect(checkIns[0]).toBeLessThan(checkIns[1]!);
});

test('the order search and an order are for administrators only; bad input is a 400 in Portuguese', async () => {
  const buyer = await h.buyer();
  const paths = ['/api/admin/orders?q=maria', `/api/admin/orders/${randomUUID()}`];
  for (const path of paths) {
    expect((await h.request('GET', path)).status).toBe(401);
    const refused = await h.request('GET', path, { token: buyer.token });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual({ message: 'Acesso restrito a administradores' });
  }
  const cases: [string, string][] = [
    ['q=' + 'a'.repeat(101), backOfficeMessages.searchTooLong],
    ['q=a&q=b', backOfficeMessages.invalidSearch],
    ['page=0', backOfficeMessages.invalidPage],
    ['page=abc', backOfficeMessages.invalidPage],
    ['page=1.5', backOfficeMessages.invalidPage],
  ];
  for (const [query, message] of cases) {
    const response = await bo.asAdmin(`/api/admin/orders?${query}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message });
  }
  for (const id of [randomUUID(), 'nao-e-um-id']) {
    const response = await bo.asAdmin(`/api/admin/orders/${id}`);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ message: 'Pedido não encontrado' });
  }
});
