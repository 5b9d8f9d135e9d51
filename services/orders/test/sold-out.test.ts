import { randomUUID } from 'node:crypto';
import { json, startOrders, type Harness } from './support.ts';

/** The catalog's 'sold out', believed for a minute here so that nothing in the test outlasts it. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders({ env: { SOLD_OUT_BELIEVED_MS: '60000' } });
});
afterAll(() => h.stop());

test('once the catalog said sold out, the next buyers are refused at once, asking no one; a buyer with an order still gets it', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const winner = await h.buyer();
  const key = { 'idempotency-key': randomUUID() };
  const won = await h.buy(winner, { eventId: event.id, paymentMethod: 'pix' }, key);
  expect(won.status).toBe(201);
  expect((await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix' })).status).toBe(409);

  const later = await h.buyer();
  const asked = h.identity.calls.length;
  const response = await h.buy(later, { eventId: event.id, paymentMethod: 'pix' });
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Evento esgotado' });
  expect(h.identity.calls.length).toBe(asked);
  // Refused before any spot was asked for: no purchase id to log.
  expect(h.lines('order refused').at(-1)).toEqual(expect.not.objectContaining({ orderId: expect.anything() }));
  expect(h.lines('order refused').at(-1)).toMatchObject({ eventId: event.id, reason: 'sold_out' });

  const again = await h.buy(winner, { eventId: event.id, paymentMethod: 'pix' }, key);
  expect(again.status).toBe(201);
  expect(await json(again)).toEqual(await json(won));
});
