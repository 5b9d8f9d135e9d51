import { json, startOrders, type Harness } from './support.ts';

/** Creating a charge may wait its turn at the provider longer than any other call takes. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders({ env: { COLLABORATOR_TIMEOUT_MS: '1000', CHARGE_TIMEOUT_MS: '10000' } });
});
afterAll(() => h.stop());

test('a charge answered after longer than other calls may take still makes the order', async () => {
  const event = await h.createEvent({ maxAttendees: 5 });
  const buyer = await h.buyer();
  h.payments.behaviour.chargeMs = 1500;
  try {
    const answer = await h.buy(buyer, { eventId: event.id, paymentMethod: 'pix' });

    expect(answer.status).toBe(201);
    const { order } = await json(answer);
    expect(await h.orderRow(order.id)).toMatchObject({ status: 'pending', asaas_payment_id: expect.any(String) });
    expect(await h.events('order.created', order.id)).toHaveLength(1);
  } finally {
    h.payments.behaviour.chargeMs = 0;
  }
});
