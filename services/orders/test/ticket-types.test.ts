import { randomUUID } from 'node:crypto';
import { orderItemMessages, type EventView } from '@ticketing/proto';
import { backOffice } from './back-office-support.ts';
import { json, makeCpf, paymentConfirmed, startOrders, type Harness } from './support.ts';

/** Orders of the types and lots the catalog sells: each line priced by the catalog's hold. */
let h: Harness;
let bo: ReturnType<typeof backOffice>;

beforeAll(async () => {
  h = await startOrders();
  bo = backOffice(h);
});
afterAll(() => h.stop());

const someone = (name: string) => ({
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}.${randomUUID().slice(0, 6)}@exemplo.com.br`,
});

/** A congress selling 'Profissional' (in two lots) and 'Estudante' (a document at the door), and a hidden 'Convidado'. */
async function congress() {
  const event = await h.createEvent({
    maxAttendees: 40,
    ticketTypes: [
      {
        name: 'Profissional',
        price: '390.00',
        lots: [
          { name: '1º lote', price: '290.00', quantity: 2 },
          { name: '2º lote', price: '390.00' },
        ],
      },
      { name: 'Estudante', price: '190.00', requiresDocument: true },
      { name: 'Convidado', price: '100.00', hidden: true },
    ],
  });
  const [professional, student] = event.ticketTypes as EventView['ticketTypes'];
  const admin = await fetch(`${h.catalog.url}/api/admin/events/${event.id}`, {
    headers: { authorization: `Bearer ${h.adminToken}` },
  });
  const { adminTicketTypes } = (await admin.json()) as { adminTicketTypes: { id: string; hidden: boolean }[] };
  const hiddenId = adminTicketTypes.find((type) => type.hidden)!.id;
  return { event, professional: professional!, student: student!, hiddenId };
}

test('types and lots price each line: the lot turns as it sells, amount = Σ prices + R$ 5,00 each', async () => {
  const { event, professional, student } = await congress();
  const who = await h.buyer();
  const response = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    items: [
      { ticketTypeId: professional.id },
      { ticketTypeId: professional.id, holder: someone('Ana Souza Lima') },
      { ticketTypeId: professional.id, holder: someone('Caio Mendes Prado') },
      { ticketTypeId: student.id, holder: { ...someone('Davi Rezende Costa'), cpf: makeCpf() } },
    ],
  });
  expect(response.status).toBe(201);
  const { order } = await json(response);
  expect(order.items.map((item: Record<string, unknown>) => [item.typeName, item.lotName, item.price])).toEqual([
    ['Profissional', '1º lote', '290.00'],
    ['Profissional', '1º lote', '290.00'],
    ['Profissional', '2º lote', '390.00'],
    ['Estudante', null, '190.00'],
  ]);
  expect(order.totalAmount).toBe('1180.00');
  expect(h.payments.charges.get(order.id)!.request.description).toMatch(/^3× Profissional, 1× Estudante – pedido EF-/);

  await paymentConfirmed(h, order.id);
  const sales = await json(await bo.asAdmin(`/api/admin/sales?eventId=${event.id}`));
  expect(sales.perType).toEqual([
    expect.objectContaining({
      ticketTypeId: professional.id,
      typeName: 'Profissional',
      tickets: 3,
      gross: '970.00',
      perLot: [
        { lotName: '1º lote', tickets: 2, gross: '580.00' },
        { lotName: '2º lote', tickets: 1, gross: '390.00' },
      ],
    }),
    expect.objectContaining({ ticketTypeId: student.id, tickets: 1, gross: '190.00' }),
  ]);
});

test("a type that asks for a document needs its holder's CPF: the buyer's own for their ticket, else 422 naming it", async () => {
  const { event, student } = await congress();
  const who = await h.buyer();
  const refused = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    items: [{ ticketTypeId: student.id, holder: someone('Ana Souza Lima') }],
  });
  expect(refused.status).toBe(422);
  expect(await json(refused)).toEqual({ message: orderItemMessages.holderCpfRequired('Estudante') });
  expect(await h.ordersOf(who.id)).toEqual([]);
  // Its spot is given back.
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });

  const own = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', items: [{ ticketTypeId: student.id }] });
  expect(own.status).toBe(201);
  const [line] = await h.orders.db('order_items').where({ order_id: (await json(own)).order.id });
  expect(line).toMatchObject({ requires_document: true, holder_cpf: who.cpf });
});

test('no items: one ticket of the first type, for the buyer; a hidden type is sold only with a promotional code', async () => {
  const { event, professional, hiddenId } = await congress();
  const who = await h.buyer();
  const plain = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' });
  expect(plain.status).toBe(201);
  expect((await json(plain)).order.items).toEqual([
    expect.objectContaining({ ticketTypeId: professional.id, lotName: '1º lote', price: '290.00' }),
  ]);

  const other = await h.buyer();
  const hidden = [{ ticketTypeId: hiddenId }];
  const refused = await h.buy(other, { eventId: event.id, paymentMethod: 'pix', items: hidden });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  const link = h.courtesy.addLink({ eventId: event.id, overridePrice: '50.00', ticketCount: 1 });
  const promoted = await h.buy(other, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code, items: hidden });
  expect(promoted.status).toBe(201);
  expect((await json(promoted)).order).toMatchObject({
    amount: '55.00',
    items: [expect.objectContaining({ typeName: 'Convidado', price: '50.00' })],
  });
});

test('a promotional code whose link names a type buys that type: absent items take it, another type is refused', async () => {
  const { event, professional, hiddenId } = await congress();
  const link = h.courtesy.addLink({
    eventId: event.id,
    overridePrice: '50.00',
    ticketCount: 3,
    ticketType: { id: hiddenId, name: 'Convidado' },
  });

  const who = await h.buyer();
  const other = [{ ticketTypeId: professional.id }];
  const refused = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code, items: other });
  expect(refused.status).toBe(422);
  expect(await json(refused)).toEqual({ message: 'Este código promocional vale para o ingresso Convidado.' });
  expect(await h.ordersOf(who.id)).toEqual([]);
  expect(h.courtesy.calls.filter((call) => call.action === 'take' && call.code === link.code)).toEqual([]);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });

  const bought = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code });
  expect(bought.status).toBe(201);
  expect((await json(bought)).order).toMatchObject({
    amount: '55.00',
    items: [expect.objectContaining({ ticketTypeId: hiddenId, typeName: 'Convidado', price: '50.00' })],
  });
});

test('a hidden type is sold only through a link of its own: a link naming a visible type does not open it', async () => {
  const { event, professional, hiddenId } = await congress();
  const link = h.courtesy.addLink({
    eventId: event.id,
    overridePrice: '50.00',
    ticketCount: 1,
    ticketType: { id: professional.id, name: 'Profissional' },
  });

  const who = await h.buyer();
  const hidden = [{ ticketTypeId: hiddenId }];
  const refused = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code, items: hidden });
  expect(refused.status).toBe(422);
  expect(await json(refused)).toEqual({ message: 'Este código promocional vale para o ingresso Profissional.' });
  expect(await h.ordersOf(who.id)).toEqual([]);
  expect(h.courtesy.usesOf(link.id)).toEqual([]);

  const own = [{ ticketTypeId: professional.id }];
  const bought = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', promoCode: link.code, items: own });
  expect(bought.status).toBe(201);
  expect((await json(bought)).order.items).toEqual([
    expect.objectContaining({ ticketTypeId: professional.id, price: '50.00' }),
  ]);
});
