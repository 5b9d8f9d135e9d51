import { randomUUID } from 'node:crypto';
import { defineService } from '@ticketing/platform';
import { startTestService, type TestService } from '@ticketing/testkit';
import { json, startCourtesy, waitFor, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy();
});
afterAll(() => courtesy.stop());

async function promoLink(ticketCount: number, overridePrice = 80) {
  const event = await courtesy.createEvent();
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount, overridePrice }));
  return { event, link };
}

const quote = (code: string, eventId: string) =>
  courtesy.call('GET', `/internal/promo-links/${code}?eventId=${eventId}`);
const take = (orderId: string, code: string, eventId: string) =>
  courtesy.call('PUT', `/internal/promo-uses/${orderId}`, { body: { code, eventId } });
const giveBack = (orderId: string) => courtesy.call('DELETE', `/internal/promo-uses/${orderId}`);
const used = async (linkId: string) =>
  (await courtesy.service.db('courtesy_links').where({ id: linkId }).first()).used_count as number;

test('a promotional code is quoted for its own event only, in any case', async () => {
  const { event, link } = await promoLink(2, 99.9);
  const answer = await quote(link.code.toLowerCase(), event.id);
  expect(answer.status).toBe(200);
  expect(await json(answer)).toEqual({
    linkId: link.id,
    overridePrice: '99.90',
    ticketType: { id: event.ticketTypes[0]!.id, name: 'Ingresso' },
  });

  const invalid = { message: 'Este código de cortesia não é válido ou já foi utilizado.' };
  const other = await courtesy.createEvent();
  for (const refused of [await quote(link.code, other.id), await quote('CDPI00000XYZ', event.id)]) {
    expect(refused.status).toBe(404);
    expect(await json(refused)).toEqual(invalid);
  }
  const free = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: null }));
  expect((await quote(free.code, event.id)).status).toBe(404);
  expect((await courtesy.call('GET', `/internal/promo-links/${link.code}?eventId=nope`)).status).toBe(400);
});

test('an order takes one use, once however often it asks; the use comes back once', async () => {
  const { event, link } = await promoLink(2);
  const orderId = randomUUID();
  for (let i = 0; i < 3; i++) {
    const answer = await take(orderId, link.code, event.id);
    expect(answer.status).toBe(200);
    expect(await json(answer)).toEqual({ linkId: link.id, overridePrice: '80.00', ticketType: link.ticketType });
  }
  expect(await used(link.id)).toBe(1);
  expect(await json(await giveBack(orderId))).toEqual({ released: true });
  expect(await json(await giveBack(orderId))).toEqual({ released: false });
  expect(await used(link.id)).toBe(0);
  // A path that names no order is refused as the taking is, before any database sees it.
  const malformed = await giveBack('not-an-order');
  expect(malformed.status).toBe(404);
  expect(await json(malformed)).toEqual({ message: 'Este código de cortesia não é válido ou já foi utilizado.' });
});

test('20 orders at once for a link of 5: exactly 5 take a use, the others hear it is used up', async () => {
  const { event, link } = await promoLink(5);
  const answers = await Promise.all(Array.from({ length: 20 }, () => take(randomUUID(), link.code, event.id)));
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(5);
  expect(statuses.filter((status) => status === 409)).toHaveLength(15);
  expect(await json(answers.find((answer) => answer.status === 409)!)).toEqual({
    message: 'Esta cortesia já foi totalmente utilizada.',
  });
  expect(await used(link.id)).toBe(5);
  expect(await courtesy.service.db('promo_uses').where({ link_id: link.id })).toHaveLength(5);
});

test('the same order asking many times at once takes one use', async () => {
  const { event, link } = await promoLink(5);
  const orderId = randomUUID();
  const answers = await Promise.all(Array.from({ length: 8 }, () => take(orderId, link.code, event.id)));
  expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  expect(await used(link.id)).toBe(1);
});

describe('orders that end unpaid, or are paid late', () => {
  const orders = defineService({ name: 'orders', migrations: [], setup: () => ({}) });
  let producer: TestService<unknown>;
  beforeAll(async () => {
    producer = await startTestService(orders, { busSchema: courtesy.busSchema });
  });
  afterAll(() => producer.stop());

  test('a cancelled or expired order gives its use back once, even when the event comes twice', async () => {
    const { event, link } = await promoLink(3);
    const [cancelled, expired] = [randomUUID(), randomUUID()];
    await take(cancelled, link.code, event.id);
    await take(expired, link.code, event.id);
    expect(await used(link.id)).toBe(2);
    for (const [type, orderId] of [
      ['order.cancelled', cancelled],
      ['order.expired', expired],
      ['order.cancelled', cancelled],
    ] as const) {
      await producer.db.transaction((trx) =>
        producer.outbox.add(trx, type, orderId, { orderId, eventId: event.id, userId: randomUUID(), paymentId: null }),
      );
    }
    const sent = (await producer.db('outbox').whereIn('key', [cancelled, expired])).map((row) => row.id as string);
    await waitFor(async () => (await courtesy.service.db('inbox').whereIn('event_id', sent)).length === 3);
    expect(await used(link.id)).toBe(0);
  });

  test('an order paid after giving its use back takes it again; a free link is not touched by its paid orders', async () => {
    const { event, link } = await promoLink(2);
    const orderId = randomUUID();
    await take(orderId, link.code, event.id);
    await giveBack(orderId);
    const free = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 1, overridePrice: null }));
    const paid = (id: string, linkId: string) =>
      producer.db.transaction((trx) =>
        producer.outbox.add(trx, 'order.paid', id, {
          orderId: id,
          orderNumber: '000123',
          userId: randomUUID(),
          eventId: event.id,
          amount: '85.00',
          paidAt: new Date().toISOString(),
          buyer: { name: 'Ana', email: 'ana@example.com' },
          event: { title: event.title, date: event.date, location: event.location },
          courtesyLinkId: linkId,
        }),
      );
    await paid(orderId, link.id);
    await paid(orderId, link.id);
    await paid(randomUUID(), free.id);
    await waitFor(async () => (await courtesy.service.db('promo_uses').where({ order_id: orderId })).length === 1);
    const sent = (await producer.db('outbox').where({ topic: 'order.paid' })).map((row) => row.id as string);
    await waitFor(async () => (await courtesy.service.db('inbox').whereIn('event_id', sent)).length === sent.length);
    expect(await used(link.id)).toBe(1);
    expect(await used(free.id)).toBe(0);
  });
});

test('a change of the event reaches the links made for it', async () => {
  const { event, link } = await promoLink(1);
  const moved = new Date(Date.parse(event.date) + 86_400_000).toISOString();
  const changed = await fetch(`${courtesy.catalog.url}/api/events/${event.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${courtesy.admin.token}` },
    body: JSON.stringify({ title: 'Novo título', location: 'Campinas – SP', date: moved }),
  });
  expect(changed.status).toBe(200);
  await waitFor(async () => {
    const found = await json(await courtesy.call('GET', `/api/courtesy-links/${link.code}`));
    return found.event.title === 'Novo título' && found;
  }).then((found) => expect(found.event).toEqual({ title: 'Novo título', date: moved, location: 'Campinas – SP' }));
});
