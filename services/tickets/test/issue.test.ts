import { randomUUID, verify as verifySignature } from 'node:crypto';
import { ed25519PublicKey } from '@ticketing/platform';
import { parseQrText } from '@ticketing/proto';
import { type PublishedKey } from '../src/index.ts';
import { decodeQrDataUrl, orderPaid, startTickets, waitFor, type Harness } from './support.ts';

let tickets: Harness;

interface KeySet {
  format: string;
  keys: PublishedKey[];
}

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

const ticketRows = (orderId: string) => tickets.db('tickets').where({ order_id: orderId });

test('a paid order gets one ticket whose QR code is signed, short, and decodes from the PNG', async () => {
  const { order, issued } = await tickets.issue();

  const rows = await ticketRows(order.orderId);
  expect(rows).toEqual([
    expect.objectContaining({
      id: issued.ticketId,
      order_id: order.orderId,
      order_number: order.orderNumber,
      event_id: order.eventId,
      user_id: order.userId,
      holder_name: 'Maria da Silva',
      holder_email: order.buyer.email,
      version: 1,
      status: 'valid',
      qr_text: issued.qrText,
      admissions: {},
    }),
  ]);
  // The event is kept once, from the order's copy until catalog announces it.
  const event = await tickets.db('event_snapshots').where({ id: order.eventId }).first();
  expect(event).toEqual({
    id: order.eventId,
    title: 'Workshop de Farmacovigilância',
    date: new Date(order.event.date),
    location: 'São Paulo – SP',
    changed_at: null,
    sessions: null,
  });

  expect(issued).toEqual({
    ticketId: rows[0].id,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    qrText: expect.stringMatching(/^T1\.[A-Za-z0-9_-]{44}\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{86}$/),
    qrCodeData: expect.stringMatching(/^data:image\/png;base64,/),
    buyer: order.buyer,
    event: order.event,
  });
  expect(issued.qrText.length).toBeLessThanOrEqual(150);
  // The image the buyer receives carries exactly the signed text.
  expect(decodeQrDataUrl(issued.qrCodeData)).toBe(issued.qrText);

  // Anyone with the published keys can check it offline.
  const parsed = parseQrText(issued.qrText)!;
  expect(parsed.claims).toEqual({ ticketId: issued.ticketId, eventId: order.eventId, version: 1 });
  const keys = (await (await fetch(`${tickets.verifier.url}/api/ticket-keys`)).json()) as KeySet;
  const key = keys.keys.find((candidate) => candidate.kid === parsed.kid)!;
  expect(key).toEqual({ kid: parsed.kid, kty: 'OKP', crv: 'Ed25519', x: expect.any(String), alg: 'EdDSA', use: 'sig' });
  expect(verifySignature(null, parsed.signed, ed25519PublicKey(key.x), parsed.signature)).toBe(true);

  expect(tickets.logs.lines).toContainEqual(
    expect.objectContaining({
      service: 'tickets-worker',
      msg: 'ticket issued',
      ticketId: issued.ticketId,
      orderId: order.orderId,
      kid: parsed.kid,
    }),
  );
});

test('the same order.paid delivered twice, or the order paid again under a new event, issues one ticket', async () => {
  const order = orderPaid();
  const envelope = await tickets.publish(order);
  await waitFor(async () => (await ticketRows(order.orderId)).length === 1);

  // The transport delivers the very same event again: the inbox makes it a no-op.
  await tickets.redeliver(envelope);
  await waitFor(async () => {
    const metric = await tickets.worker.metrics.busHandled.get();
    return metric.values.some(
      (value) => value.labels.topic === 'order.paid' && value.labels.outcome === 'duplicate' && value.value >= 1,
    );
  });
  // A second event for the same order (new id) meets the one-ticket-per-order constraint.
  await tickets.publish({ ...order, paidAt: new Date().toISOString() });
  await waitFor(() =>
    tickets.logs.lines.some((line) => line.msg === 'ticket already issued' && line.orderId === order.orderId),
  );

  expect(await ticketRows(order.orderId)).toHaveLength(1);
  const issued = (await tickets.events('ticket.issued')).filter((event) => event.orderId === order.orderId);
  expect(issued).toHaveLength(1);
  expect(
    tickets.logs.lines.filter((line) => line.msg === 'ticket issued' && line.orderId === order.orderId),
  ).toHaveLength(1);
});

test('tickets of different orders get different ids and QR codes', async () => {
  const eventId = randomUUID();
  const [first, second] = await Promise.all([tickets.issue({ eventId }), tickets.issue({ eventId })]);
  expect(first.issued.ticketId).not.toBe(second.issued.ticketId);
  expect(first.issued.qrText).not.toBe(second.issued.qrText);
  expect(await tickets.db('tickets').where({ event_id: eventId })).toHaveLength(2);
});

test('the public keys are published without authentication and never include private material', async () => {
  const response = await fetch(`${tickets.verifier.url}/api/ticket-keys`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('public, max-age=60');
  const body = (await response.json()) as KeySet;
  expect(body.format).toBe('T1');
  expect(body.keys).toHaveLength(1);
  expect(Object.keys(body.keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
  const [stored] = await tickets
    .db('signing_keys')
    .join('signing_key_secrets', 'signing_key_secrets.kid', 'signing_keys.kid');
  expect(body.keys[0]).toMatchObject({ kid: stored.kid, x: stored.public_key });
  expect(JSON.stringify(body)).not.toContain(stored.private_key);
});

test('the CPF of a paid order is kept as digits for the door, and not passed on in ticket.issued', async () => {
  const buyer = { name: 'Joana Prado Martins', email: 'joana@example.com.br' };
  const withCpf = await tickets.issue({ buyer: { ...buyer, cpf: '529.982.247-25' } });
  expect(await ticketRows(withCpf.order.orderId)).toEqual([expect.objectContaining({ holder_cpf: '52998224725' })]);
  expect(withCpf.issued.buyer).toEqual(buyer);

  // Events published before orders sent the CPF, and orders with none, issue a ticket without it.
  for (const cpf of [undefined, null, '']) {
    const { order } = await tickets.issue({ buyer: { ...buyer, cpf } });
    expect(await ticketRows(order.orderId)).toEqual([expect.objectContaining({ holder_cpf: null })]);
  }
});
