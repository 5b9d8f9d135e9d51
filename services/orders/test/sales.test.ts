import {
  backOfficeMessages,
  CONVENIENCE_FEE_CENTS,
  fromCents,
  toCents,
  type EventView,
  type SalesView,
} from '@ticketing/proto';
import { expireOverdueOrders } from '../src/index.ts';
import { backOffice } from './back-office-support.ts';
import { bought, json, startOrders, type Harness } from './support.ts';

/** The back office's sales figures; this file's harness holds only the orders its tests make. */
let h: Harness;
let bo: ReturnType<typeof backOffice>;

beforeAll(async () => {
  h = await startOrders();
  bo = backOffice(h);
});
afterAll(() => h.stop());

type Method = 'pix' | 'credit_card' | 'boleto' | 'courtesy';

/** An order as the test made it, and what the figures must make of it. */
interface Made {
  eventId: string;
  amount: string;
  method: Method;
  status: 'pending' | 'paid' | 'cancelled' | 'expired' | 'refunded';
  netValue?: string;
  paidAt?: string;
  checkedIn?: boolean;
}

const saoPauloDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });
const sum = (values: string[]) => fromCents(values.reduce((total, value) => total + toCents(value), 0));
const count = (made: Made[], test: (one: Made) => boolean) => made.filter(test).length;

/** The figures as the orders made in the test add up. */
function expectedFigures(made: Made[]) {
  const paid = made.filter((one) => one.status === 'paid');
  const bought = paid.filter((one) => one.method !== 'courtesy');
  const gross = sum(paid.map((one) => one.amount));
  const net = sum(paid.map((one) => one.netValue ?? one.amount));
  const days = new Map<string, Made[]>();
  for (const one of bought) {
    const day = saoPauloDay.format(new Date(one.paidAt!));
    days.set(day, [...(days.get(day) ?? []), one]);
  }
  const view = {
    gross,
    fee: fromCents(toCents(gross) - toCents(net)),
    net,
    refunded: sum(made.filter((one) => one.status === 'refunded').map((one) => one.amount)),
    // No coupon was used in these sales (see the coupon test for discounts).
    discounts: '0.00',
    perCoupon: [],
    orders: {
      byStatus: Object.fromEntries(
        (['pending', 'paid', 'cancelled', 'expired', 'refunded'] as const).map((status) => [
          status,
          count(made, (one) => one.status === status),
        ]),
      ),
      byMethod: Object.fromEntries(
        (['pix', 'credit_card', 'boleto', 'courtesy'] as const).map((method) => [
          method,
          count(paid, (one) => one.method === method),
        ]),
      ),
    },
    tickets: { paid: bought.length, courtesy: paid.length - bought.length },
    perDay: [...days.keys()].sort().map((date) => ({
      date,
      orders: days.get(date)!.length,
      gross: sum(days.get(date)!.map((one) => one.amount)),
    })),
  };
  return { view, door: { checkedIn: count(paid, (one) => one.checkedIn === true), sold: paid.length } };
}

/**
 * One event's valid tickets by type: bought ones of its first type (an event made without types sells one,
 * 'Ingresso'), courtesies of no type (the event's id: the catalog holds a courtesy link's spots of the event alone);
 * each order one ticket, without lots, at its amount less the convenience fee (a courtesy's R$ 0,00).
 */
function expectedPerType(event: EventView, made: Made[]): SalesView['perType'] {
  const valid = made.filter((one) => one.eventId === event.id && one.status === 'paid');
  const firstType = event.ticketTypes[0]?.id ?? event.id;
  const byType = Map.groupBy(valid, (one) => (one.method === 'courtesy' ? event.id : firstType));
  return [...byType].map(([ticketTypeId, ones]) => {
    const prices = ones.map((one) =>
      one.method === 'courtesy' ? '0.00' : fromCents(toCents(one.amount) - CONVENIENCE_FEE_CENTS),
    );
    const tickets = { tickets: ones.length, gross: sum(prices) };
    return { ticketTypeId, typeName: 'Ingresso', ...tickets, perLot: [{ lotName: null, ...tickets }] };
  });
}

test('the sales figures, of each event and of all, equal the sums of the orders made', async () => {
  const concert = await h.createEvent({ price: '150.00', maxAttendees: 50 });
  const lecture = await h.createEvent({ price: '80.00', maxAttendees: 50 });
  const made: Made[] = [];

  /** A purchase paid at `paidAt`, with the provider's net when told. */
  async function sale(event: { id: string }, method: Exclude<Method, 'courtesy'>, paidAt: string, netValue?: string) {
    const { order } = await bought(h, await h.buyer(), event.id, method);
    await bo.pay(order.id, { paidAt, netValue });
    const one: Made = { eventId: event.id, amount: order.amount, method, status: 'paid', paidAt, netValue };
    made.push(one);
    return { id: order.id, made: one };
  }

  // Around midnight in São Paulo (UTC-3): 02:30Z is still the 9th there, 03:30Z is the 10th.
  const pixLate = await sale(concert, 'pix', '2026-03-10T02:30:00.000Z', '154.01');
  await sale(concert, 'credit_card', '2026-03-10T03:30:00.000Z', '147.36');
  await sale(concert, 'boleto', '2026-03-10T14:00:00.000Z'); // the provider did not tell its net
  const refunded = await sale(concert, 'credit_card', '2026-03-11T12:00:00.000Z', '147.36');
  const lectureSale = await sale(lecture, 'pix', '2026-03-11T12:00:00.000Z', '84.01');
  await sale(lecture, 'boleto', '2026-03-12T23:59:00.000Z', '83.01');

  // An administrator refunds one: its money leaves the revenue.
  const refund = await h.request('POST', `/api/admin/orders/${refunded.id}/refund`, {
    token: h.adminToken,
    body: { reason: 'Comprador não poderá comparecer' },
  });
  expect(refund.status).toBe(202);
  refunded.made.status = 'refunded';

  // One waits for its boleto, one is cancelled by its buyer, one expires unpaid.
  const waiting = await bought(h, await h.buyer(), concert.id, 'boleto');
  made.push({ eventId: concert.id, amount: waiting.order.amount, method: 'boleto', status: 'pending' });
  const quitter = await h.buyer();
  const cancelled = await bought(h, quitter, concert.id, 'pix');
  expect((await h.request('DELETE', `/api/orders/${cancelled.order.id}/cancel`, { token: quitter.token })).status).toBe(
    200,
  );
  made.push({ eventId: concert.id, amount: cancelled.order.amount, method: 'pix', status: 'cancelled' });
  const late = await bought(h, await h.buyer(), lecture.id, 'pix');
  await h.orders
    .db('orders')
    .where({ id: late.order.id })
    .update({ expires_at: new Date(Date.now() - 60_000) });
  expect(await expireOverdueOrders({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger })).toEqual([
    late.order.id,
  ]);
  made.push({ eventId: lecture.id, amount: late.order.amount, method: 'pix', status: 'expired' });

  // Courtesies, one per event.
  await bo.courtesy(await h.buyer(), concert);
  made.push({ eventId: concert.id, amount: '0.00', method: 'courtesy', status: 'paid' });
  const guest = await bo.courtesy(await h.buyer(), lecture);
  const guestMade: Made = { eventId: lecture.id, amount: '0.00', method: 'courtesy', status: 'paid' };
  made.push(guestMade);

  // The lecture started (as the orders keep its date): two came in, one of them let in again after a reset.
  await h.orders
    .db('orders')
    .where({ event_id: lecture.id })
    .update({ event_date: new Date(Date.now() - 3_600_000) });
  await bo.checkIn(lectureSale.id);
  lectureSale.made.checkedIn = true;
  await bo.checkIn(guest);
  await bo.reset(guest);
  guestMade.checkedIn = true;
  // A check-in at the concert, which has not started, counts only in its own line.
  await bo.checkIn(pixLate.id);
  pixLate.made.checkedIn = true;

  const ofConcert = expectedFigures(made.filter((one) => one.eventId === concert.id));
  const ofLecture = expectedFigures(made.filter((one) => one.eventId === lecture.id));
  const ofAll = expectedFigures(made);

  const concertView = (await json(await bo.asAdmin(`/api/admin/sales?eventId=${concert.id}`))) as SalesView;
  expect(concertView).toEqual({
    event: { id: concert.id, title: concert.title, date: new Date(concert.date).toISOString() },
    ...ofConcert.view,
    checkIns: { eventStarted: false, ...ofConcert.door },
    perEvent: [],
    perType: expectedPerType(concert, made),
  });
  // The sums, spelled out once: 155 + 155 + 155 paid (the 4th refunded), nets 154.01 + 147.36 + 155 (not told).
  expect(concertView).toMatchObject({ gross: '465.00', net: '456.37', fee: '8.63', refunded: '155.00' });
  expect(concertView.perDay).toEqual([
    { date: '2026-03-09', orders: 1, gross: '155.00' },
    { date: '2026-03-10', orders: 2, gross: '310.00' },
  ]);
  expect(concertView.orders.byStatus).toEqual({ pending: 1, paid: 4, cancelled: 1, expired: 0, refunded: 1 });
  expect(concertView.orders.byMethod).toEqual({ pix: 1, credit_card: 1, boleto: 1, courtesy: 1 });

  const lectureView = (await json(await bo.asAdmin(`/api/admin/sales?eventId=${lecture.id}`))) as SalesView;
  expect(lectureView).toEqual({
    event: { id: lecture.id, title: lecture.title, date: expect.any(String) },
    ...ofLecture.view,
    checkIns: { eventStarted: true, checkedIn: 2, sold: 3 },
    perEvent: [],
    perType: expectedPerType(lecture, made),
  });
  expect(lectureView).toMatchObject({ gross: '170.00', net: '167.02', fee: '2.98', tickets: { paid: 2, courtesy: 1 } });

  const allView = (await json(await bo.asAdmin('/api/admin/sales'))) as SalesView;
  expect(allView).toEqual({
    event: null,
    ...ofAll.view,
    // Over every event, only the one that started counts at the door; tickets by type are one event's.
    checkIns: { eventStarted: true, ...ofLecture.door },
    perType: [],
    perEvent: [
      {
        eventId: lecture.id,
        title: lecture.title,
        date: lectureView.event!.date,
        gross: ofLecture.view.gross,
        net: ofLecture.view.net,
        paid: ofLecture.view.tickets.paid,
        courtesy: ofLecture.view.tickets.courtesy,
        checkedIn: ofLecture.door.checkedIn,
      },
      {
        eventId: concert.id,
        title: concert.title,
        date: new Date(concert.date).toISOString(),
        gross: ofConcert.view.gross,
        net: ofConcert.view.net,
        paid: ofConcert.view.tickets.paid,
        courtesy: ofConcert.view.tickets.courtesy,
        checkedIn: ofConcert.door.checkedIn,
      },
    ],
  });
  expect(allView.perDay.map((day) => day.date)).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12']);

  // An event with no orders yet has every figure at zero.
  const empty = await h.createEvent();
  expect(await json(await bo.asAdmin(`/api/admin/sales?eventId=${empty.id}&outro=1`))).toMatchObject({
    event: { id: empty.id, title: null, date: null },
    gross: '0.00',
    fee: '0.00',
    net: '0.00',
    tickets: { paid: 0, courtesy: 0 },
    perDay: [],
    checkIns: { eventStarted: false, checkedIn: 0, sold: 0 },
  });
});

test('the figures are for administrators only, and a bad event id is a 400 in Portuguese', async () => {
  const anonymous = await h.request('GET', '/api/admin/sales');
  expect(anonymous.status).toBe(401);
  expect((await json(anonymous)).message).toEqual(expect.any(String));
  const buyer = await h.buyer();
  const doorStaff = await h.issuer.sign({ roles: ['doorStaff'], name: 'Porteiro' });
  for (const token of [buyer.token, doorStaff]) {
    const response = await h.request('GET', '/api/admin/sales', { token });
    expect(response.status).toBe(403);
    expect(await json(response)).toEqual({ message: 'Acesso restrito a administradores' });
  }
  for (const query of ['eventId=abc', 'eventId=1%27%20or%201=1', 'eventId=a&eventId=b']) {
    const response = await bo.asAdmin(`/api/admin/sales?${query}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ message: backOfficeMessages.invalidEvent });
  }
  expect((await bo.asAdmin('/api/admin/sales?eventId=')).status).toBe(200);
});
