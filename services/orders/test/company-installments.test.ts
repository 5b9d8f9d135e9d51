import { installmentMessages } from '@ticketing/proto';
import { json, startOrders, type Harness } from './support.ts';

/** Buying for a company (the charge made out to its CNPJ) and paying by card in installments, within the event's terms. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const company = {
  cnpj: '11222333000181',
  name: 'Farmácia Boa Saúde Ltda',
  email: 'Financeiro@BoaSaude.com.br',
  purchaseOrder: 'PC-2026-0042',
};

test('a company order is charged to the CNPJ (no CPF needed), announced and shown with the company', async () => {
  const event = await h.createEvent();
  const who = await h.buyer({ cpf: null });

  const response = await h.buy(who, { eventId: event.id, paymentMethod: 'boleto', company });
  expect(response.status).toBe(201);
  const { order } = await json(response);
  const stored = {
    cnpj: '11.222.333/0001-81',
    name: 'Farmácia Boa Saúde Ltda',
    email: 'financeiro@boasaude.com.br',
    purchaseOrder: 'PC-2026-0042',
  };
  expect(order).toMatchObject({ company: stored, installments: 1, discountAmount: '0.00', couponCode: null });

  const [charge] = h.payments.callsFor(order.id, 'charge');
  expect(charge!.body).toMatchObject({
    method: 'boleto',
    amount: '155.00',
    orderNumber: order.orderNumber,
    installments: 1,
    customer: { userId: who.id, name: stored.name, cnpj: stored.cnpj, email: stored.email },
  });
  expect(charge!.body).not.toHaveProperty('customer.cpf');

  const [created] = await h.events('order.created', order.id);
  expect(created).toMatchObject({ company: stored, installments: 1, discountAmount: '0.00' });
  // The tickets still go to the holder: the buyer.
  expect(created!.items).toEqual([
    expect.objectContaining({ holder: { name: who.name, email: who.email, cpf: null } }),
  ]);

  const listed = await json(await h.request('GET', '/api/orders', { token: who.token }));
  expect(listed.orders[0]).toMatchObject({ id: order.id, company: stored });

  // In their own name, the same buyer still needs a CPF.
  const own = await h.buy(who, { eventId: (await h.createEvent()).id, paymentMethod: 'pix' });
  expect(own.status).toBe(422);
  expect(await json(own)).toEqual({
    message: 'Erro ao processar pagamento: cadastre seu CPF no perfil antes de comprar.',
  });
});

test('an invalid CNPJ is refused before anything is taken', async () => {
  const event = await h.createEvent();
  const who = await h.buyer();
  const response = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    company: { ...company, cnpj: '11.222.333/0001-82' },
  });
  expect(response.status).toBe(400);
  expect(await json(response)).toEqual({ message: 'CNPJ inválido' });
  expect(await h.ordersOf(who.id)).toEqual([]);
});

test('installments within the event terms are stored, passed to payments and shown', async () => {
  // R$ 155,00 in at most 6 of at least R$ 50,00: 1x, 2x or 3x.
  const event = await h.createEvent({ maxInstallments: 6, minInstallmentValue: '50.00' });
  const who = await h.buyer();

  const response = await h.buy(who, { eventId: event.id, paymentMethod: 'credit_card', installments: 3 });
  expect(response.status).toBe(201);
  const { order } = await json(response);
  expect(order.installments).toBe(3);
  expect((await h.orderRow(order.id)).installments).toBe(3);
  expect(h.payments.callsFor(order.id, 'charge')[0]!.body).toMatchObject({ method: 'credit_card', installments: 3 });
  expect(await h.events('order.created', order.id)).toEqual([expect.objectContaining({ installments: 3 })]);
});

test('installments beyond the terms (the count, the smallest installment) are refused and the spots given back', async () => {
  const event = await h.createEvent({ maxInstallments: 6, minInstallmentValue: '50.00', maxAttendees: 1 });
  const who = await h.buyer();

  // 4x would be R$ 38,75 each, under the smallest installment.
  const belowMin = await h.buy(who, { eventId: event.id, paymentMethod: 'credit_card', installments: 4 });
  expect(belowMin.status).toBe(422);
  expect(await json(belowMin)).toEqual({ message: installmentMessages.notAllowed([1, 2, 3]) });
  expect(await h.ordersOf(who.id)).toEqual([]);
  // The one spot is free again: the next purchase gets it.
  const fits = await h.buy(who, { eventId: event.id, paymentMethod: 'credit_card', installments: 2 });
  expect(fits.status).toBe(201);

  // An event that never set terms sells by card at once only.
  const plain = await h.createEvent();
  const aboveCount = await h.buy(who, { eventId: plain.id, paymentMethod: 'credit_card', installments: 2 });
  expect(aboveCount.status).toBe(422);
  expect(await json(aboveCount)).toEqual({ message: 'Este pedido só pode ser pago à vista.' });
});

test('installments are for cards only', async () => {
  const event = await h.createEvent({ maxInstallments: 6 });
  const who = await h.buyer();
  const response = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', installments: 2 });
  expect(response.status).toBe(400);
  expect(await json(response)).toEqual({ message: installmentMessages.cardOnly });
  expect(await h.ordersOf(who.id)).toEqual([]);
});
