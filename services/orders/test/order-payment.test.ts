import { bought, json, startOrders, type Buyer, type Harness } from './support.ts';

/** How a pending order is paid, as the buyer's orders list and order.created carry it. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

async function viewOf(owner: Buyer, orderId: string) {
  const { orders } = await json(await h.request('GET', '/api/orders?page=1', { token: owner.token }));
  return orders.find((order: { id: string }) => order.id === orderId);
}

test('a pending boleto order shows its PDF and digitable line until paid; order.created carries both', async () => {
  const owner = await h.buyer();
  const event = await h.createEvent();
  const { order } = await bought(h, owner, event.id, 'boleto');
  const charge = h.payments.charges.get(order.id)!.view;

  const pending = await viewOf(owner, order.id);
  expect(pending.payment).toEqual({
    pixQrCode: null,
    pixPayload: null,
    boletoUrl: charge.boletoUrl,
    boletoLine: charge.boletoLine,
    invoiceUrl: charge.invoiceUrl,
    expiresAt: pending.expiresAt,
  });
  expect(charge.boletoLine).toMatch(/^\d{47}$/);
  // How to pay it is payments' own, asked again for each answer: never kept with the order.
  expect(Object.keys(await h.orderRow(order.id))).not.toContain('boleto_line');
  expect(h.payments.callsFor(order.id, 'read').length).toBeGreaterThan(0);
  expect(await h.events('order.created', order.id)).toEqual([
    expect.objectContaining({
      paymentMethod: 'boleto',
      boletoUrl: charge.boletoUrl,
      boletoLine: charge.boletoLine,
      pixPayload: null,
    }),
  ]);

  await h.handled(
    await h.publish('payment.confirmed', {
      orderId: order.id,
      paymentId: charge.paymentId,
      providerStatus: 'RECEIVED',
      value: order.amount,
      paidAt: new Date().toISOString(),
    }),
  );
  expect(await viewOf(owner, order.id)).toMatchObject({ status: 'paid', payment: null });
});

test('a pending PIX order shows its QR code and copy-paste code; a cancelled one shows no way to pay', async () => {
  const owner = await h.buyer();
  const event = await h.createEvent();
  const { order } = await bought(h, owner, event.id, 'pix');
  const charge = h.payments.charges.get(order.id)!.view;

  expect((await viewOf(owner, order.id)).payment).toMatchObject({
    pixQrCode: charge.pixQrCode,
    pixPayload: charge.pixPayload,
    boletoUrl: null,
    boletoLine: null,
  });
  expect(await h.events('order.created', order.id)).toEqual([
    expect.objectContaining({ pixPayload: charge.pixPayload, boletoUrl: null, boletoLine: null }),
  ]);

  const cancelled = await h.request('DELETE', `/api/orders/${order.id}/cancel`, { token: owner.token });
  expect(cancelled.status).toBe(200);
  expect(await viewOf(owner, order.id)).toMatchObject({ status: 'cancelled', payment: null });
});
