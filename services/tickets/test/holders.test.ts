import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import {
  scanMessages,
  type DoorSearchView,
  type DoorTicketsView,
  type MyTicketView,
  type ParticipantsView,
} from '@ticketing/proto';
import {
  decodeQrDataUrl,
  orderPaid,
  orderRefunded,
  startTickets,
  waitFor,
  withdrawalRequested,
  type Harness,
  type OrderPaid,
  type TicketIssued,
} from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

type Item = NonNullable<OrderPaid['items']>[number];

const PROFESSIONAL = {
  ticketTypeId: randomUUID(),
  typeName: 'Profissional',
  lotName: '1º lote',
  price: '390.00',
  requiresDocument: false,
};
const STUDENT = {
  ticketTypeId: randomUUID(),
  typeName: 'Estudante',
  lotName: null,
  price: '190.00',
  requiresDocument: true,
};
const PROFESSIONAL_TYPE = { id: PROFESSIONAL.ticketTypeId, name: 'Profissional', requiresDocument: false };
const STUDENT_TYPE = { id: STUDENT.ticketTypeId, name: 'Estudante', requiresDocument: true };

const tag = () => randomUUID().slice(0, 8);

/** A paid order of three tickets of two types: the buyer's own, a colleague's, and a student's with CPF. */
function orderOfThree(overrides: Partial<OrderPaid> = {}): OrderPaid {
  const buyer = { name: 'Marina Queiroz', email: `marina.${tag()}@exemplo.com.br` };
  const items: Item[] = [
    { index: 0, ...PROFESSIONAL, holder: { ...buyer, cpf: null } },
    { index: 1, ...PROFESSIONAL, holder: { name: 'Ana Souza Lima', email: `ana.${tag()}@exemplo.com.br`, cpf: null } },
    {
      index: 2,
      ...STUDENT,
      holder: { name: 'Caio Mendes Prado', email: `caio.${tag()}@exemplo.com.br`, cpf: '529.982.247-25' },
    },
  ];
  return orderPaid({ buyer, amount: '970.00', items, paymentMethod: 'pix', ...overrides });
}

const issuedFor = async (orderId: string) =>
  (await tickets.events('ticket.issued')).filter((event) => event.orderId === orderId);

/** Publishes the order and waits for its three tickets; their ticket.issued by line. */
async function issueThree(overrides: Partial<OrderPaid> = {}): Promise<{ order: OrderPaid; issued: TicketIssued[] }> {
  const order = orderOfThree(overrides);
  await tickets.handled(await tickets.publish(order));
  const issued = await waitFor(async () => {
    const found = await issuedFor(order.orderId);
    return found.length === 3 && found;
  });
  return { order, issued: issued.sort((a, b) => a.itemIndex! - b.itemIndex!) };
}

async function call(path: string, token: string = tickets.admin.token) {
  const response = await fetch(tickets.verifier.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as unknown };
}

const holderChange = (order: OrderPaid, index: number, holder: Item['holder']) => {
  const item = order.items![index]!;
  return tickets.emit('order.holder-changed', {
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    item: { ...item, holder },
    previous: item.holder,
    changedAt: new Date().toISOString(),
  });
};

const rowsOf = async (orderId: string) => tickets.db('tickets').where({ order_id: orderId }).orderBy('item_index');

test('an order of three lines of two types gets three tickets for three holders, each QR admitted once', async () => {
  const { order, issued } = await issueThree();
  const [own, colleague, student] = order.items!.map((item) => item.holder);

  expect(await rowsOf(order.orderId)).toEqual([
    expect.objectContaining({
      item_index: 0,
      holder_name: own!.name,
      holder_email: own!.email,
      holder_cpf: null,
      ticket_type_name: 'Profissional',
      ticket_type_requires_document: false,
      buyer_name: 'Marina Queiroz',
      status: 'valid',
    }),
    expect.objectContaining({ item_index: 1, holder_name: colleague!.name, ticket_type_name: 'Profissional' }),
    expect.objectContaining({
      item_index: 2,
      holder_name: student!.name,
      holder_cpf: '52998224725',
      ticket_type_id: STUDENT.ticketTypeId,
      ticket_type_name: 'Estudante',
      ticket_type_requires_document: true,
    }),
  ]);
  expect(issued).toEqual([
    expect.objectContaining({ itemIndex: 0, holder: own, ticketType: PROFESSIONAL_TYPE, buyer: order.buyer }),
    expect.objectContaining({ itemIndex: 1, holder: colleague, ticketType: PROFESSIONAL_TYPE, buyer: order.buyer }),
    expect.objectContaining({
      itemIndex: 2,
      holder: { ...student, cpf: '529.982.247-25' },
      ticketType: STUDENT_TYPE,
      buyer: order.buyer,
    }),
  ]);
  expect(new Set(issued.map((event) => event.ticketId)).size).toBe(3);
  expect(new Set(issued.map((event) => event.qrText)).size).toBe(3);
  for (const event of issued) expect(decodeQrDataUrl(event.qrCodeData)).toBe(event.qrText);

  for (const [index, event] of issued.entries()) {
    expect(await tickets.scan(event.qrText)).toMatchObject({
      success: true,
      code: 'valid',
      userName: order.items![index]!.holder.name,
      ticketType: index === 2 ? STUDENT_TYPE : PROFESSIONAL_TYPE,
      ticketId: event.ticketId,
    });
    expect(await tickets.scan(event.qrText)).toMatchObject({ success: false, code: 'already_used' });
  }

  // An administrator lets one of them in again, named among the order's tickets.
  const reset = await fetch(`${tickets.verifier.url}/api/reset-ticket/${order.orderId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tickets.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ticketId: issued[2]!.ticketId.toUpperCase() }),
  });
  expect(await reset.json()).toMatchObject({ ticketId: issued[2]!.ticketId, orderId: order.orderId });
  expect((await tickets.scan(issued[2]!.qrText)).code).toBe('valid');
  expect((await tickets.scan(issued[1]!.qrText)).code).toBe('already_used');

  // Delivered again: nothing more is issued.
  const again = await tickets.publish(order);
  await tickets.handled(again);
  expect(await rowsOf(order.orderId)).toHaveLength(3);
  expect(await issuedFor(order.orderId)).toHaveLength(3);
});

test('withdrawals racing scans of every ticket of their orders: all three void, or the withdrawal refused, never both', async () => {
  const orders = await Promise.all(Array.from({ length: 4 }, () => issueThree()));

  const outcomes = await Promise.all(
    orders.map(async ({ order, issued }) => {
      const [withdrawal, ...scans] = await Promise.all([
        tickets.emit('order.withdrawal-requested', withdrawalRequested(order)),
        ...issued.map((event) => tickets.scan(event.qrText)),
      ]);
      await tickets.handled(withdrawal as Awaited<ReturnType<typeof tickets.emit>>);
      const decided = await tickets.events('ticket.withdrawal-decided', order.orderId);
      return { scans: scans as Awaited<ReturnType<typeof tickets.scan>>[], rows: await rowsOf(order.orderId), decided };
    }),
  );

  for (const { scans, rows, decided } of outcomes) {
    expect(decided).toHaveLength(1);
    const admitted = rows.filter((row) => Object.keys(row.admissions).length > 0);
    expect(scans.filter((scan) => scan.code === 'valid')).toHaveLength(admitted.length);
    if (decided[0]!.outcome === 'admitted') {
      expect(rows.map((row) => row.status)).toEqual(['valid', 'valid', 'valid']);
      expect(admitted.length).toBeGreaterThan(0);
    } else {
      expect(rows.map((row) => row.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(admitted).toEqual([]);
      expect(scans.map((scan) => scan.code)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    }
  }
});

test('a holder change reissues the ticket to the new holder: the old QR is outdated, the new one admits', async () => {
  const { order, issued } = await issueThree();
  const newcomer = { name: 'Davi Rezende Costa', email: `davi.${tag()}@exemplo.com.br`, cpf: null };

  await tickets.handled(await holderChange(order, 1, newcomer));

  const reissued = await waitFor(async () => {
    const found = await issuedFor(order.orderId);
    return found.length === 4 && found[3]!;
  });
  expect(reissued).toMatchObject({
    ticketId: issued[1]!.ticketId,
    itemIndex: 1,
    holder: newcomer,
    buyer: order.buyer,
    ticketType: PROFESSIONAL_TYPE,
  });
  expect(reissued.qrText).not.toBe(issued[1]!.qrText);
  expect(decodeQrDataUrl(reissued.qrCodeData)).toBe(reissued.qrText);
  expect(await tickets.db('tickets').where({ id: issued[1]!.ticketId }).first()).toMatchObject({
    version: 2,
    holder_name: newcomer.name,
    holder_email: newcomer.email,
    qr_text: reissued.qrText,
  });

  expect(await tickets.scan(issued[1]!.qrText)).toMatchObject({
    success: false,
    code: 'invalid',
    message: scanMessages.outdated,
  });
  expect(await tickets.scan(reissued.qrText)).toMatchObject({
    success: true,
    userName: newcomer.name,
    ticketType: PROFESSIONAL_TYPE,
  });
  // The other tickets of the order are untouched.
  expect((await tickets.scan(issued[0]!.qrText)).code).toBe('valid');

  // Once the order is refunded, a holder change does nothing.
  await tickets.handled(await tickets.emit('order.refunded', orderRefunded(order)));
  await tickets.handled(
    await holderChange(order, 2, { name: 'Eva Lima Torres', email: `eva.${tag()}@exemplo.com.br`, cpf: null }),
  );
  expect(await issuedFor(order.orderId)).toHaveLength(4);
  expect(await tickets.db('tickets').where({ id: issued[2]!.ticketId }).first()).toMatchObject({
    version: 1,
    holder_name: 'Caio Mendes Prado',
    status: 'cancelled',
  });
});

test('a withdrawal voids all the order’s tickets, or is refused when one of them was admitted', async () => {
  const voided = await issueThree();
  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(voided.order)));
  expect(await tickets.events('ticket.withdrawal-decided', voided.order.orderId)).toEqual([
    expect.objectContaining({ outcome: 'cancelled', ticketId: voided.issued[0]!.ticketId, usedAt: null }),
  ]);
  for (const event of voided.issued) expect((await tickets.scan(event.qrText)).code).toBe('cancelled');

  const kept = await issueThree();
  const admitted = await tickets.scan(kept.issued[2]!.qrText);
  expect(admitted.code).toBe('valid');
  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(kept.order)));
  expect(await tickets.events('ticket.withdrawal-decided', kept.order.orderId)).toEqual([
    expect.objectContaining({ outcome: 'admitted', ticketId: kept.issued[2]!.ticketId, usedAt: admitted.usedAt }),
  ]);
  expect((await rowsOf(kept.order.orderId)).map((row) => row.status)).toEqual(['valid', 'valid', 'valid']);
  expect((await tickets.scan(kept.issued[0]!.qrText)).code).toBe('valid');
});

test('a refund cancels every ticket of the order; one refunded before it was paid issues them all cancelled', async () => {
  const { order, issued } = await issueThree();
  await tickets.handled(await tickets.emit('order.refunded', orderRefunded(order)));
  expect((await rowsOf(order.orderId)).map((row) => row.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  for (const event of issued) expect((await tickets.scan(event.qrText)).code).toBe('cancelled');

  const early = orderOfThree();
  await tickets.handled(await tickets.emit('order.refunded', orderRefunded(early)));
  await tickets.handled(await tickets.publish(early));
  expect((await rowsOf(early.orderId)).map((row) => row.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  expect(await issuedFor(early.orderId)).toEqual([]);
});

test('the door finds a holder by name or CPF with the type, and its ticket list carries the type', async () => {
  const eventId = randomUUID();
  const { order, issued } = await issueThree({ eventId });
  const search = async (q: string) => {
    const { status, body } = await call(`/api/door/events/${eventId}/search?${new URLSearchParams({ q })}`);
    expect(status).toBe(200);
    return (body as DoorSearchView).tickets;
  };

  expect(await search('ana souza')).toEqual([
    expect.objectContaining({
      ticketId: issued[1]!.ticketId,
      orderNumber: order.orderNumber,
      holderName: 'Ana Souza Lima',
      ticketType: PROFESSIONAL_TYPE,
      cpf: null,
    }),
  ]);
  expect(await search('529.982.247-25')).toEqual([
    expect.objectContaining({ holderName: 'Caio Mendes Prado', ticketType: STUDENT_TYPE, cpf: '***.982.247-**' }),
  ]);
  expect((await search(order.orderNumber)).map((hit) => hit.holderName)).toEqual([
    'Ana Souza Lima',
    'Caio Mendes Prado',
    'Marina Queiroz',
  ]);

  const { body } = await call(`/api/door/events/${eventId}/tickets`);
  const list = (body as DoorTicketsView).tickets;
  expect(list.find((ticket) => ticket.id === issued[2]!.ticketId)).toMatchObject({
    holderName: 'Caio Mendes Prado',
    ticketType: { name: 'Estudante', requiresDocument: true },
  });
});

test('the buyer’s own ticket keeps the buyer’s CPF for the door when its type asks for none', async () => {
  const order = orderOfThree();
  order.buyer = { ...order.buyer, cpf: '111.444.777-35' };
  await tickets.handled(await tickets.publish(order));
  expect((await rowsOf(order.orderId)).map((row) => row.holder_cpf)).toEqual(['11144477735', null, '52998224725']);
});

test('the participants list and spreadsheet show each ticket’s type and holder; a resend goes to the holder', async () => {
  const eventId = randomUUID();
  const { order, issued } = await issueThree({ eventId });
  const { body } = await call(`/api/admin/tickets?${new URLSearchParams({ eventId })}`);
  expect((body as ParticipantsView).tickets.map(({ holderName, ticketType }) => ({ holderName, ticketType }))).toEqual([
    { holderName: 'Ana Souza Lima', ticketType: PROFESSIONAL_TYPE },
    { holderName: 'Caio Mendes Prado', ticketType: STUDENT_TYPE },
    { holderName: 'Marina Queiroz', ticketType: PROFESSIONAL_TYPE },
  ]);

  const response = await fetch(
    `${tickets.verifier.url}/api/admin/tickets/export.csv?${new URLSearchParams({ eventId })}`,
    {
      headers: { authorization: `Bearer ${tickets.admin.token}` },
    },
  );
  const rows = parse(Buffer.from(await response.arrayBuffer()), { delimiter: ';', bom: true }) as string[][];
  expect(rows.map((row) => row.slice(0, 5))).toEqual([
    ['Nome', 'E-mail', 'CPF', 'Tipo', 'Pedido'],
    ['Ana Souza Lima', order.items![1]!.holder.email, '', 'Profissional', order.orderNumber],
    ['Caio Mendes Prado', order.items![2]!.holder.email, '529.982.247-25', 'Estudante', order.orderNumber],
    ['Marina Queiroz', order.buyer.email, '', 'Profissional', order.orderNumber],
  ]);

  const resend = await fetch(`${tickets.verifier.url}/api/admin/tickets/${issued[1]!.ticketId}/resend`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tickets.admin.token}` },
  });
  expect(await resend.json()).toMatchObject({ holderEmail: order.items![1]!.holder.email });
  expect(await tickets.events('ticket.resent', issued[1]!.ticketId)).toEqual([
    { ...issued[1], qrCodeData: expect.stringMatching(/^data:image\/png;base64,/), resentBy: tickets.admin.id },
  ]);
});

test('a holder sees their own valid tickets, bought by them or for them, soonest event first', async () => {
  const later = await issueThree({
    event: { title: 'Congresso de Farmácia', date: '2027-09-01T12:00:00.000Z', location: 'Recife – PE' },
  });
  const ana = later.order.items![1]!.holder;
  // Ana's own purchase, of an event that comes sooner.
  const sooner = await tickets.issue({
    userId: randomUUID(),
    buyer: { name: ana.name, email: ana.email.toUpperCase() },
    event: { title: 'Workshop de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo – SP' },
  });
  // A refunded one she held is not listed.
  const refunded = await issueThree();
  await tickets.handled(
    await holderChange(refunded.order, 1, { ...ana, cpf: null }),
    await tickets.emit('order.refunded', orderRefunded(refunded.order)),
  );

  const anaToken = await tickets.sign({ id: sooner.order.userId, email: ana.email, name: ana.name });
  const { status, body } = await call('/api/tickets/mine', anaToken);
  expect(status).toBe(200);
  const mine = body as MyTicketView[];
  expect(mine).toEqual([
    {
      ticketId: sooner.issued.ticketId,
      orderNumber: sooner.order.orderNumber,
      ticketType: null,
      holderName: ana.name,
      boughtBy: null,
      event: {
        id: sooner.order.eventId,
        title: 'Workshop de Farmacovigilância',
        date: '2027-03-12T22:00:00.000Z',
        location: 'São Paulo – SP',
      },
      qrCodeData: expect.stringMatching(/^data:image\/png;base64,/),
      used: false,
    },
    expect.objectContaining({
      ticketId: later.issued[1]!.ticketId,
      ticketType: PROFESSIONAL_TYPE,
      holderName: ana.name,
      boughtBy: 'Marina Queiroz',
      event: expect.objectContaining({ title: 'Congresso de Farmácia' }),
      used: false,
    }),
  ]);
  expect(decodeQrDataUrl(mine[1]!.qrCodeData)).toBe(later.issued[1]!.qrText);

  // The buyer sees only the ticket she holds herself.
  const buyerToken = await tickets.sign({ id: later.order.userId, email: later.order.buyer.email });
  const buyers = (await call('/api/tickets/mine', buyerToken)).body as MyTicketView[];
  expect(buyers.map((ticket) => [ticket.ticketId, ticket.boughtBy])).toEqual([[later.issued[0]!.ticketId, null]]);

  const anonymous = await fetch(`${tickets.verifier.url}/api/tickets/mine`);
  expect(anonymous.status).toBe(401);
});

test('a deleted buyer is erased from the tickets they held; those they bought for others keep their holders', async () => {
  const { order, issued } = await issueThree();
  await tickets.handled(await tickets.emit('user.deleted', { userId: order.userId }));

  const rows = await rowsOf(order.orderId);
  expect(rows.map((row) => [row.holder_name, row.buyer_name])).toEqual([
    ['Titular removido', 'Titular removido'],
    ['Ana Souza Lima', 'Titular removido'],
    ['Caio Mendes Prado', 'Titular removido'],
  ]);
  expect(rows[2]!.holder_cpf).toBe('52998224725');
  const events = await issuedFor(order.orderId);
  expect(JSON.stringify(events)).not.toContain(order.buyer.email);
  expect((await tickets.scan(issued[1]!.qrText)).userName).toBe('Ana Souza Lima');
});
