import { bought, startOrders, type Harness } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

/** A gauge as Prometheus reads it from the service's /metrics. */
async function scraped(name: string): Promise<number> {
  const text = await (await fetch(`${h.orders.url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name}{`) || entry.startsWith(`${name} `));
  if (!line) throw new Error(`${name} is not on /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

test('the pending orders near their expiry, those past it, and the refused refunds are counted from the orders table', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const orders = [];
  for (let i = 0; i < 5; i++) orders.push((await bought(h, await h.buyer(), event.id)).order);
  const [near1, near2, overdue, later, refused] = orders.map((order) => order.id);
  const set = (id: string, fields: Record<string, unknown>) => h.orders.db('orders').where({ id }).update(fields);
  await set(near1!, { expires_at: minutes(5) });
  await set(near2!, { expires_at: minutes(14) });
  await set(overdue!, { expires_at: minutes(-1) });
  await set(later!, { expires_at: minutes(120) });
  await set(refused!, {
    status: 'refunded',
    refund_owed_since: minutes(-30),
    refund_refused_at: minutes(-20),
    refund_refusal: 'Saldo insuficiente para estorno',
  });

  expect(await scraped('orders_pending_near_expiry')).toBe(2);
  expect(await scraped('orders_pending_overdue')).toBe(1);
  expect(await scraped('orders_refunds_refused')).toBe(1);

  // Paid, expired and retried, they leave the counts.
  await set(near1!, { status: 'paid' });
  await set(overdue!, { status: 'expired' });
  await set(refused!, { refund_refused_at: null });
  expect(await scraped('orders_pending_near_expiry')).toBe(1);
  expect(await scraped('orders_pending_overdue')).toBe(0);
  expect(await scraped('orders_refunds_refused')).toBe(0);
});
