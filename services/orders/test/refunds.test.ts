import { randomUUID } from 'node:crypto';
import { makeCpf } from '@ticketing/testkit';
import { refundMessages } from '@ticketing/proto';
import { paymentsClient } from '../src/clients/payments.ts';
import { sendOwedRefunds } from '../src/index.ts';
import {
  bought,
  paymentConfirmed,
  DAY,
  json,
  startOrders,
  ticketAnswersWithdrawal,
  waitFor,
  type Buyer,
  type Harness,
} from './support.ts';

/** Administrators' refunds and buyers' withdrawals, with payments standing in; the retry job is driven by hand. */
let h: Harness;
let staff: { doorStaff: string; courtesyManager: string; otherAdmin: string };
const adminId = randomUUID();
let adminToken: string;

beforeAll(async () => {
  h = await startOrders({ env: { ORDER_REFUND_RETRY_MS: String(3_600_000) } });
  staff = {
    doorStaff: await h.issuer.sign({ roles: ['doorStaff'], name: 'Porteiro' }),
    courtesyManager: await h.issuer.sign({ roles: ['courtesyManager'], name: 'Gestora' }),
    otherAdmin: await h.issuer.sign({ isAdmin: true, name: 'Outra Admin' }),
  };
  adminToken = await h.issuer.sign({ id: adminId, isAdmin: true, name: 'Admin' });
});
afterAll(() => h.stop());

const REASON = 'Evento remarcado; o comprador pediu o dinheiro de volta';

/** The refund route as `token` calls it (none: anonymous), with `body` as sent. */
const refundAs = (token: string | undefined, orderId: string, body: unknown) =>
  h.request('POST', `/api/admin/orders/${orderId}/refund`, { token, body });
const adminRefund = (orderId: string) => refundAs(adminToken, orderId, { reason: REASON });
const withdrawal = (orderId: string, token: string | undefined) =>
  h.request('POST', `/api/orders/${orderId}/withdraw`, { token });

const refundDeps = () => ({
  db: h.orders.db,
  outbox: h.orders.outbox,
  logger: h.orders.logger,
  payments: paymentsClient(h.payments.url, 5000, h.orders),
});

/** A paid order of a new buyer; `paidDaysAgo` moves its payment back in time, as the database keeps it. */
async function paidOrder({ paidDaysAgo = 0, method = 'pix' } = {}): Promise<{ id: string; owner: Buyer }> {
  const owner = await h.buyer();
  const event = await h.createEvent({ maxAttendees: 50 });
  const { order } = await bought(h, owner, event.id, method);
  await paymentConfirmed(h, order.id);
  expect((await h.orderRow(order.id)).status).toBe('paid');
  if (paidDaysAgo) await setOrder(order.id, { paid_at: new Date(Date.now() - paidDaysAgo * DAY) });
  return { id: order.id, owner };
}

const setOrder = (id: string, changes: Record<string, unknown>) => h.orders.db('orders').where({ id }).update(changes);

async function viewOf(owner: Buyer, orderId: string) {
  const { orders } = await json(await h.request('GET', '/api/orders?page=1', { token: owner.token }));
  return orders.find((order: { id: string }) => order.id === orderId);
}

test('an administrator refunds a paid order: refunded and owed, payments asked at once, then order.refunded once', async () => {
  const { id, owner } = await paidOrder();

  const response = await refundAs(adminToken, id, { reason: `  ${REASON}  ` });

  expect(response.status).toBe(202);
  const body = await json(response);
  expect(body).toMatchObject({
    message: refundMessages.refundRequested,
    order: { id, status: 'refunded', refund: { reason: 'refund', pending: false }, canWithdraw: false },
  });
  expect(await h.orderRow(id)).toMatchObject({
    status: 'refunded',
    refund_reason: 'refund',
    refund_note: REASON,
    refund_requested_by: adminId,
    refund_requested_at: expect.any(Date),
    refunded_at: expect.any(Date),
    refund_owed_since: null,
  });
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', id)).toEqual([
    expect.objectContaining({ orderId: id, reason: 'refund', amount: '155.00', userId: owner.id }),
  ]);
  expect(h.lines('refund requested')).toContainEqual(
    expect.objectContaining({ orderId: id, reason: 'refund', requestedBy: adminId }),
  );

  // The buyer sees it refunded, with the reason; asked again, it is refunded already.
  expect(await viewOf(owner, id)).toMatchObject({
    status: 'refunded',
    refund: { reason: 'refund', pending: false, requestedAt: expect.any(String) },
    canWithdraw: false,
  });
  const again = await adminRefund(id);
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({ message: refundMessages.alreadyRefunded });
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
});

test('a refund payments cannot do yet stays owed (the buyer sees it on its way) and the retry job finishes it', async () => {
  const { id, owner } = await paidOrder();
  h.payments.behaviour.refund = 'down';
  try {
    const response = await adminRefund(id);
    expect(response.status).toBe(202);
    expect((await json(response)).order).toMatchObject({ status: 'refunded', refund: { pending: true } });
    expect(await h.orderRow(id)).toMatchObject({ status: 'refunded', refund_owed_since: expect.any(Date) });
    expect(await h.events('order.refunded', id)).toEqual([]);
    expect(h.lines('refund not done yet; retrying later')).toContainEqual(expect.objectContaining({ orderId: id }));
    expect(await viewOf(owner, id)).toMatchObject({ status: 'refunded', refund: { reason: 'refund', pending: true } });
  } finally {
    h.payments.behaviour.refund = 'ok';
  }

  expect(await sendOwedRefunds(refundDeps())).toContain(id);
  expect(await h.orderRow(id)).toMatchObject({ refund_owed_since: null });
  expect(await h.events('order.refunded', id)).toEqual([expect.objectContaining({ orderId: id, reason: 'refund' })]);
  expect(await viewOf(owner, id)).toMatchObject({ refund: { pending: false } });
});

test('a refund the provider refuses stays owed, logged as an error, and waits for an administrator, not the job', async () => {
  const { id } = await paidOrder();
  h.payments.behaviour.refund = 'refuse';
  try {
    const response = await adminRefund(id);
    expect(response.status).toBe(202);
    expect((await json(response)).order).toMatchObject({
      status: 'refunded',
      refund: { pending: true, status: 'refused' },
    });
    expect(h.lines('refund refused by the provider; waiting for an administrator')).toContainEqual(
      expect.objectContaining({ orderId: id, level: 50 }),
    );
    expect(await sendOwedRefunds(refundDeps())).not.toContain(id);
    expect(await h.orderRow(id)).toMatchObject({ refund_owed_since: expect.any(Date) });
    expect(await h.events('order.refunded', id)).toEqual([]);
  } finally {
    h.payments.behaviour.refund = 'ok';
  }
  // The provider would take it now, but only an administrator asks again (see refund-outcomes.test.ts).
  const calls = h.payments.callsFor(id, 'refund').length;
  expect(await sendOwedRefunds(refundDeps())).not.toContain(id);
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(calls);
  expect(await h.events('order.refunded', id)).toEqual([]);
});

test('ten refunds of one order at once, from two administrators: one refund, one provider call, one order.refunded', async () => {
  const { id } = await paidOrder();
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => refundAs(i % 2 ? staff.otherAdmin : adminToken, id, { reason: REASON })),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([202, ...Array(9).fill(409)]);
  for (const answer of answers.filter((one) => one.status === 409)) {
    expect(await json(answer)).toEqual({ message: refundMessages.alreadyRefunded });
  }
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', id)).toHaveLength(1);
  expect(h.lines('refund requested').filter((line) => line.orderId === id)).toHaveLength(1);
});

test('an administrator refund needs a reason of 3 to 500 characters, and a paid order with money', async () => {
  const { id } = await paidOrder();
  for (const body of [undefined, {}, { reason: 42 }]) {
    const response = await refundAs(adminToken, id, body);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message: refundMessages.reasonRequired });
  }
  for (const reason of ['ab', '   ab   ', 'x'.repeat(501)]) {
    const response = await refundAs(adminToken, id, { reason });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message: refundMessages.reasonLength });
  }
  expect((await h.orderRow(id)).status).toBe('paid');

  for (const unknown of [randomUUID(), 'nao-e-um-id', '1%27%20or%201=1']) {
    const response = await adminRefund(unknown);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ message: 'Pedido não encontrado' });
  }

  // A pending order has no money yet; expired and cancelled ones never had it here.
  const buyer = await h.buyer();
  const { order: pending } = await bought(h, buyer, (await h.createEvent()).id);
  const cases = [
    [pending.id, 'pending'],
    [pending.id, 'expired'],
    [pending.id, 'cancelled'],
  ] as const;
  for (const [orderId, status] of cases) {
    await setOrder(orderId, { status });
    const response = await adminRefund(orderId);
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ message: refundMessages.refundNotPaid });
  }
  expect(h.payments.callsFor(pending.id, 'refund')).toEqual([]);
});

test('a courtesy order (R$ 0,00) has no money to give back: refused with 409, the ticket stands', async () => {
  const who = await h.buyer();
  const event = await h.createEvent({ maxAttendees: 20 });
  const attendeeId = randomUUID();
  await h.publish('courtesy.redeemed', {
    redemptionId: randomUUID(),
    linkId: randomUUID(),
    attendeeId,
    userId: who.id,
    eventId: event.id,
    attendee: { name: 'Joana Prado Martins', email: `joana.${attendeeId.slice(0, 8)}@exemplo.com.br`, cpf: makeCpf() },
    event: { title: event.title, date: event.date, location: event.location },
  });
  const order = await waitFor(async () => (await h.ordersOf(who.id))[0]);

  for (const response of [await adminRefund(order.id), await withdrawal(order.id, who.token)]) {
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ message: refundMessages.nothingToRefund });
  }
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'paid', refund_reason: null });
  expect(await h.events('order.refunded', order.id)).toEqual([]);
  expect((await viewOf(who, order.id)).canWithdraw).toBe(false);
});

test('the buyer withdraws within 7 days of the payment, before the event: the ticket is voided first, then the same refund, reason withdrawal', async () => {
  const { id, owner } = await paidOrder({ paidDaysAgo: 6.9 });
  expect(await viewOf(owner, id)).toMatchObject({
    status: 'paid',
    refund: null,
    canWithdraw: true,
    withdrawalRequestedAt: null,
  });

  const response = await withdrawal(id, owner.token);

  // Noted and announced to tickets; no money moves before the ticket is void.
  expect(response.status).toBe(202);
  const { order } = await json(response);
  expect(order).toMatchObject({ id, status: 'paid', refund: null, canWithdraw: false });
  const requestedAt = new Date(order.withdrawalRequestedAt);
  expect(await h.events('order.withdrawal-requested', id)).toEqual([
    expect.objectContaining({ orderId: id, userId: owner.id, requestedAt: requestedAt.toISOString() }),
  ]);
  expect(h.payments.callsFor(id, 'refund')).toEqual([]);
  expect(await h.events('order.refunded', id)).toEqual([]);
  const twice = await withdrawal(id, owner.token);
  expect(twice.status).toBe(409);
  expect(await json(twice)).toEqual({ message: refundMessages.withdrawalInProgress });

  // Tickets voided the ticket: the money goes back.
  await ticketAnswersWithdrawal(h, id, 'cancelled');
  await waitFor(async () => (await h.orderRow(id)).refund_owed_since === null);
  expect(await h.orderRow(id)).toMatchObject({
    status: 'refunded',
    refund_reason: 'withdrawal',
    refund_requested_by: owner.id,
    refund_requested_at: requestedAt,
    refund_note: null,
    withdrawal_requested_at: null,
  });
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', id)).toEqual([
    expect.objectContaining({ orderId: id, reason: 'withdrawal', userId: owner.id }),
  ]);
  expect(await viewOf(owner, id)).toMatchObject({
    status: 'refunded',
    refund: { reason: 'withdrawal', pending: false },
    withdrawalRequestedAt: null,
  });
  const again = await withdrawal(id, owner.token);
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({ message: refundMessages.alreadyRefunded });
});

test('the door admitted the ticket before the withdrawal reached it: refused, the order stays paid, nothing goes back', async () => {
  const { id, owner } = await paidOrder();
  expect((await withdrawal(id, owner.token)).status).toBe(202);
  const usedAt = new Date(Date.now() - 60_000);

  await ticketAnswersWithdrawal(h, id, 'admitted', usedAt);

  expect(await h.orderRow(id)).toMatchObject({
    status: 'paid',
    refund_reason: null,
    withdrawal_requested_at: null,
    first_checked_in_at: usedAt,
  });
  expect(await viewOf(owner, id)).toMatchObject({ status: 'paid', canWithdraw: false, withdrawalRequestedAt: null });
  expect(h.payments.callsFor(id, 'refund')).toEqual([]);
  expect(await h.events('order.refunded', id)).toEqual([]);
  const again = await withdrawal(id, owner.token);
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({ message: refundMessages.withdrawalAfterEntry });
});

test('no withdrawal after 7 days from the payment, nor once the event started: 409 saying why', async () => {
  const late = await paidOrder({ paidDaysAgo: 7.01 });
  const started = await paidOrder();
  // The event started: the catalog says so (withdrawal reads it), and the order's copy too (its view reads that).
  const startedAt = new Date(Date.now() - 60_000);
  await h.catalog
    .db('events')
    .where({ id: (await h.orderRow(started.id)).event_id })
    .update({ date: startedAt });
  await setOrder(started.id, { event_date: startedAt });

  for (const [{ id, owner }, message] of [
    [late, refundMessages.withdrawalTooLate],
    [started, refundMessages.withdrawalEventStarted],
  ] as const) {
    expect((await viewOf(owner, id)).canWithdraw).toBe(false);
    const response = await withdrawal(id, owner.token);
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ message });
    expect(await h.orderRow(id)).toMatchObject({ status: 'paid', refund_reason: null });
    expect(h.payments.callsFor(id, 'refund')).toEqual([]);
  }

  // An administrator may still refund either of them.
  expect((await adminRefund(late.id)).status).toBe(202);
});

test('ten withdrawals of one order at once: one withdrawal announced, then one refund, one provider call, one order.refunded', async () => {
  const { id, owner } = await paidOrder({ paidDaysAgo: 1 });
  const answers = await Promise.all(Array.from({ length: 10 }, () => withdrawal(id, owner.token)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([202, ...Array(9).fill(409)]);
  expect(await h.events('order.withdrawal-requested', id)).toHaveLength(1);
  await ticketAnswersWithdrawal(h, id, 'cancelled');
  await waitFor(() => h.payments.callsFor(id, 'refund').length === 1);
  await waitFor(async () => (await h.events('order.refunded', id)).length === 1);
  expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
});

test('who may refund: administrators only; who may withdraw: the order owner only', async () => {
  const refundable = await paidOrder();
  const stranger = await h.buyer();
  const cases: [string, string | undefined, number][] = [
    ['anonymous', undefined, 401],
    ['buyer', stranger.token, 403],
    ['owner', refundable.owner.token, 403],
    ['door staff', staff.doorStaff, 403],
    ['courtesy manager', staff.courtesyManager, 403],
  ];
  for (const [who, token, status] of cases) {
    const response = await refundAs(token, refundable.id, { reason: REASON });
    expect({ who, status: response.status }).toEqual({ who, status });
    if (status === 403) expect(await json(response)).toEqual({ message: 'Acesso restrito a administradores' });
  }
  expect((await h.orderRow(refundable.id)).status).toBe('paid');
  expect((await adminRefund(refundable.id)).status).toBe(202);

  const withdrawable = await paidOrder();
  const others: [string, string | undefined, number][] = [
    ['anonymous', undefined, 401],
    ['another buyer', stranger.token, 404],
    ['door staff', staff.doorStaff, 404],
    ['courtesy manager', staff.courtesyManager, 404],
    ['admin', adminToken, 404],
  ];
  for (const [who, token, status] of others) {
    const response = await withdrawal(withdrawable.id, token);
    expect({ who, status: response.status }).toEqual({ who, status });
  }
  expect((await h.orderRow(withdrawable.id)).status).toBe('paid');
  expect((await withdrawal(withdrawable.id, withdrawable.owner.token)).status).toBe(202);
});
