import { ordersMessages } from '@ticketing/proto';
import { json, startOrders, type Harness } from './support.ts';

/** Pending orders capped per account and per CPF; purchases rate-limited per account, never per address. */
let h: Harness;
const MAX_PENDING = 3;
const PURCHASES_PER_MINUTE = 12;

beforeAll(async () => {
  h = await startOrders({
    env: {
      MAX_PENDING_ORDERS: String(MAX_PENDING),
      ORDER_RATE_LIMIT_POINTS: String(PURCHASES_PER_MINUTE),
      ORDER_RATE_LIMIT_WINDOW_SECONDS: '60',
    },
  });
});
afterAll(() => h.stop());

const events = (count: number) => Promise.all(Array.from({ length: count }, () => h.createEvent({ maxAttendees: 5 })));
const pendingOf = async (userId: string) =>
  (await h.ordersOf(userId)).filter((order: { status: string }) => order.status === 'pending');

test('ten purchases of one account at once, for ten events: exactly the cap is pending, the rest refused with 409 saying why', async () => {
  const buyer = await h.buyer();
  const targets = await events(10);

  const answers = await Promise.all(targets.map((event) => h.buy(buyer, { eventId: event.id, paymentMethod: 'pix' })));

  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([...Array(MAX_PENDING).fill(201), ...Array(10 - MAX_PENDING).fill(409)]);
  for (const answer of answers.filter((one) => one.status === 409)) {
    expect(await json(answer)).toEqual({ message: ordersMessages.tooManyPending(MAX_PENDING) });
  }
  expect(await pendingOf(buyer.id)).toHaveLength(MAX_PENDING);
  // The refused ones left nothing: no other order row, no spot held (the one each took was given back), no charge.
  expect(await h.ordersOf(buyer.id)).toHaveLength(MAX_PENDING);
  const held = await Promise.all(targets.map((event) => h.holds(event.id)));
  expect(held.flat().filter((hold: { released_at: Date | null }) => !hold.released_at)).toHaveLength(MAX_PENDING);
  const attendees = await Promise.all(targets.map(async (event) => (await h.eventRow(event.id)).current_attendees));
  expect(attendees.reduce((sum, count) => sum + count, 0)).toBe(MAX_PENDING);

  // Cancelling one frees a place for another.
  const [first] = await pendingOf(buyer.id);
  expect((await h.request('DELETE', `/api/orders/${first.id}/cancel`, { token: buyer.token })).status).toBe(200);
  const [another] = await events(1);
  expect((await h.buy(buyer, { eventId: another!.id, paymentMethod: 'boleto' })).status).toBe(201);
});

test('the cap counts the CPF too: two accounts holding one CPF share it', async () => {
  const first = await h.buyer();
  const second = await h.buyer({ cpf: first.cpf });
  const targets = await events(MAX_PENDING + 1);

  for (const event of targets.slice(0, MAX_PENDING - 1)) {
    expect((await h.buy(first, { eventId: event.id, paymentMethod: 'pix' })).status).toBe(201);
  }
  expect((await h.buy(second, { eventId: targets[MAX_PENDING - 1]!.id, paymentMethod: 'pix' })).status).toBe(201);
  const refused = await h.buy(second, { eventId: targets[MAX_PENDING]!.id, paymentMethod: 'pix' });
  expect(refused.status).toBe(409);
  expect(await json(refused)).toEqual({ message: ordersMessages.tooManyPending(MAX_PENDING) });
  expect(await pendingOf(second.id)).toHaveLength(1);
});

test('purchases are limited per account: 429 with Retry-After and a pt-BR message; another account on the same address buys on', async () => {
  const busy = await h.buyer();
  const neighbour = await h.buyer();
  const targets = await events(PURCHASES_PER_MINUTE + 1);

  // Every attempt counts, whatever its answer (the cap refuses those past the third).
  const answers = await Promise.all(
    targets.slice(0, PURCHASES_PER_MINUTE).map((event) => h.buy(busy, { eventId: event.id, paymentMethod: 'pix' })),
  );
  expect(answers.map((answer) => answer.status)).not.toContain(429);

  const limited = await h.buy(busy, { eventId: targets[PURCHASES_PER_MINUTE]!.id, paymentMethod: 'pix' });
  expect(limited.status).toBe(429);
  expect(await json(limited)).toEqual({ message: ordersMessages.tooManyOrders });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(h.lines('purchases throttled')).toContainEqual(expect.objectContaining({ userId: busy.id }));

  // Both come from 127.0.0.1: the other account is not held back by the first.
  const other = await h.buy(neighbour, { eventId: targets[PURCHASES_PER_MINUTE]!.id, paymentMethod: 'pix' });
  expect(other.status).toBe(201);
  // Reading one's orders is not a purchase: not limited.
  expect((await h.request('GET', '/api/orders?page=1', { token: busy.token })).status).toBe(200);
});
