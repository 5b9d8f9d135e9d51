import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@ticketing/proto';
import { courtesyRedeemed } from '../src/index.ts';
import { backOffice } from './back-office-support.ts';
import { makeCpf, startOrders, waitFor, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function redemption(userId: string): Promise<EventPayload<'courtesy.redeemed'>> {
  const event = await h.createEvent({ maxAttendees: 20 });
  const attendeeId = randomUUID();
  return {
    redemptionId: randomUUID(),
    linkId: randomUUID(),
    attendeeId,
    userId,
    eventId: event.id,
    attendee: { name: 'Joana Prado Martins', email: `joana.${attendeeId.slice(0, 8)}@exemplo.com.br`, cpf: makeCpf() },
    event: { title: event.title, date: event.date, location: event.location },
  };
}

const logged = (msg: string, attendeeId: string) =>
  h.lines(msg).filter((line) => line.courtesyAttendeeId === attendeeId).length;

test('a redeemed courtesy becomes one paid R$ 0,00 order of the redeeming user, with order.paid, even when delivered twice', async () => {
  const who = await h.buyer();
  const redeemed = await redemption(who.id);

  await h.publish('courtesy.redeemed', redeemed);
  await h.publish('courtesy.redeemed', redeemed);
  await waitFor(() => logged('courtesy order paid', redeemed.attendeeId) === 1);
  await waitFor(() => logged('courtesy redemption already ordered', redeemed.attendeeId) === 1);

  // State: one paid order for the attendee, bought by nobody and held by no one.
  const rows = await h.ordersOf(who.id);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  expect(row).toMatchObject({
    user_id: who.id,
    event_id: redeemed.eventId,
    status: 'paid',
    amount: '0.00',
    payment_method: null,
    courtesy_link_id: redeemed.linkId,
    courtesy_attendee_id: redeemed.attendeeId,
    cpf: redeemed.attendee.cpf,
    buyer_name: 'Joana Prado Martins',
    buyer_email: redeemed.attendee.email,
    event_title: redeemed.event.title,
    event_location: redeemed.event.location,
    asaas_payment_id: null,
    expires_at: null,
    idempotency_key: null,
  });
  expect(row.paid_at).toBeInstanceOf(Date);
  expect(Math.abs(row.paid_at.getTime() - Date.now())).toBeLessThan(60_000);
  expect(row.event_date.toISOString()).toBe(new Date(redeemed.event.date).toISOString());

  // Published: one order.paid, to the e-mail typed in the form, with the link.
  expect(await h.events(undefined, row.id)).toEqual([
    {
      type: 'order.paid',
      orderId: row.id,
      orderNumber: row.order_number,
      userId: who.id,
      eventId: redeemed.eventId,
      amount: '0.00',
      paidAt: row.paid_at.toISOString(),
      buyer: { name: 'Joana Prado Martins', email: redeemed.attendee.email, cpf: redeemed.attendee.cpf },
      event: { title: redeemed.event.title, date: redeemed.event.date, location: redeemed.event.location },
      courtesyLinkId: redeemed.linkId,
      paymentMethod: 'courtesy',
      // The guest's one ticket, of the event's one type.
      items: [
        {
          index: 0,
          ticketTypeId: redeemed.eventId,
          typeName: 'Ingresso',
          lotName: null,
          price: '0.00',
          requiresDocument: false,
          holder: redeemed.attendee,
        },
      ],
      installments: 1,
      discountAmount: '0.00',
    },
  ]);

  // No spot, charge or use was asked for: the courtesy link holds its spots.
  expect(await h.holds(redeemed.eventId)).toEqual([]);
  expect(h.payments.callsFor(row.id)).toEqual([]);
  expect(h.courtesy.callsFor(row.id)).toEqual([]);

  // The profile lists it paid, with no payment method; it cannot be cancelled, and checking it says confirmed.
  const listed = await json(await h.request('GET', '/api/orders', { token: who.token }));
  expect(listed).toEqual({
    orders: [
      {
        id: row.id,
        orderNumber: expect.stringMatching(/^EF-\d{6}$/),
        status: 'paid',
        amount: '0.00',
        totalAmount: '0.00',
        items: [
          expect.objectContaining({
            index: 0,
            price: '0.00',
            holderName: 'Joana Prado Martins',
            canChangeHolder: true,
          }),
        ],
        paymentMethod: null,
        createdAt: expect.stringMatching(ISO),
        expiresAt: null,
        qrCodeData: null,
        qrCodeUsed: false,
        qrCodeUsedAt: null,
        asaasPaymentId: null,
        event: { title: redeemed.event.title, date: redeemed.event.date, location: redeemed.event.location },
        // Nothing was paid: there is nothing to withdraw from.
        refund: null,
        canWithdraw: false,
        withdrawalRequestedAt: null,
        payment: null,
        company: null,
        installments: 1,
        discountAmount: '0.00',
        couponCode: null,
        invoice: null,
      },
    ],
    totalPages: 1,
  });
  const cancel = await h.request('DELETE', `/api/orders/${row.id}/cancel`, { token: who.token });
  expect(cancel.status).toBe(409);
  expect(await json(cancel)).toEqual({ message: 'Este pedido já foi pago e não pode ser cancelado.' });
  const check = await h.request('POST', `/api/orders/${row.id}/check-status`, { token: who.token });
  expect(await json(check)).toEqual({ message: 'Pagamento confirmado! Seu ingresso foi enviado por e-mail.' });

  // Logs: the order, without the attendee's personal data.
  expect(h.lines('courtesy order paid')).toContainEqual(
    expect.objectContaining({ orderId: row.id, eventId: redeemed.eventId, courtesyLinkId: redeemed.linkId }),
  );
  const lines = JSON.stringify(h.logs.lines);
  for (const personal of [redeemed.attendee.email, redeemed.attendee.cpf, 'Joana Prado']) {
    expect(lines).not.toContain(personal);
  }
});

test('the same redemption handled by many consumers at once makes one order and one order.paid', async () => {
  const who = await h.buyer();
  const redeemed = await redemption(who.id);
  const deps = { outbox: h.orders.outbox, logger: h.orders.logger };

  await Promise.all(
    Array.from({ length: 8 }, () => h.orders.db.transaction((trx) => courtesyRedeemed(deps, trx, redeemed))),
  );

  const rows = await h.ordersOf(who.id);
  expect(rows).toEqual([expect.objectContaining({ courtesy_attendee_id: redeemed.attendeeId, status: 'paid' })]);
  expect(await h.events('order.paid', rows[0].id)).toHaveLength(1);
  expect(logged('courtesy order paid', redeemed.attendeeId)).toBe(1);
  expect(logged('courtesy redemption already ordered', redeemed.attendeeId)).toBe(7);
});

test('each attendee of a link gets an order of their own, and only a courtesy order may lack a payment method', async () => {
  const who = await h.buyer();
  const first = await redemption(who.id);
  const second = { ...first, redemptionId: randomUUID(), attendeeId: randomUUID() };
  await h.publish('courtesy.redeemed', first);
  await h.publish('courtesy.redeemed', second);
  await waitFor(async () => (await h.ordersOf(who.id)).length === 2);
  expect((await h.ordersOf(who.id)).map((row) => row.courtesy_attendee_id).sort()).toEqual(
    [first.attendeeId, second.attendeeId].sort(),
  );

  const purchase = {
    user_id: who.id,
    event_id: first.eventId,
    amount: '155.00',
    event_title: first.event.title,
    event_date: new Date(first.event.date),
    event_location: first.event.location,
    buyer_name: who.name,
    buyer_email: who.email,
  };
  await expect(h.orders.db('orders').insert({ ...purchase, payment_method: null })).rejects.toMatchObject({
    constraint: 'orders_payment_method_or_courtesy',
  });
  await expect(h.orders.db('orders').insert({ ...purchase, payment_method: 'cheque' })).rejects.toMatchObject({
    constraint: 'orders_payment_method_known',
  });
});

test("a redemption naming its link's type makes the line of that type: sales count it under its own name", async () => {
  const who = await h.buyer();
  const event = await h.createEvent({
    maxAttendees: 20,
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Convidado VIP', price: '500.00', hidden: true, requiresDocument: true },
    ],
  });
  const [vip] = await h.catalog.db('ticket_types').where({ event_id: event.id, name: 'Convidado VIP' });
  const redeemed = {
    ...(await redemption(who.id)),
    eventId: event.id,
    event: { title: event.title, date: event.date, location: event.location },
    ticketType: { id: vip.id, name: 'Convidado VIP', requiresDocument: true },
  };

  await h.publish('courtesy.redeemed', redeemed);
  // The order once its transaction committed (the log line comes just before the commit).
  const [row] = await waitFor(async () => {
    const rows = await h.ordersOf(who.id);
    return rows.length === 1 && rows;
  });
  expect(await h.orders.db('order_items').where({ order_id: row.id })).toEqual([
    expect.objectContaining({
      ticket_type_id: vip.id,
      type_name: 'Convidado VIP',
      lot_name: null,
      price: '0.00',
      requires_document: true,
      holder_cpf: redeemed.attendee.cpf,
    }),
  ]);
  const [paid] = await h.events('order.paid', row.id);
  expect(paid!.items).toEqual([expect.objectContaining({ ticketTypeId: vip.id, typeName: 'Convidado VIP' })]);
  const sales = await json(await backOffice(h).asAdmin(`/api/admin/sales?eventId=${event.id}`));
  expect(sales.perType.map((type: { typeName: string; tickets: number }) => [type.typeName, type.tickets])).toEqual([
    ['Convidado VIP', 1],
  ]);
});
