import { randomUUID } from 'node:crypto';
import { catalogClient, identitySessions, jsonClient } from '@ticketing/platform';
import { courtesyClient, identityClient, paymentsClient } from '@ticketing/orders';
import { certificatePdfUrl, linkHeadersFor } from '@ticketing/mail';
import { publishAsOwner, waitFor } from '@ticketing/testkit';
import { checkIn, eventWithSessions, ticketOf } from '../../services/certificates/test/support.ts';
import { adminEvent, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

// Each caller's own client against the real callee: the client parses every answer with the route's answer schema
// in proto, so a callee whose answer drifts from its contract fails here with the contract's issues.

let system: Awaited<ReturnType<typeof startSystem>>;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system?.stop());

const TIMEOUT_MS = 5000;

test('every service → identity: the signed session state of an account', async () => {
  const buyer = await verifiedBuyer(system);
  const me = await system.call('GET', '/api/auth/me', { token: buyer.token });
  for (const caller of [system.catalog, system.orders, system.courtesy]) {
    const sessions = identitySessions(jsonClient('identity', system.identity.url, TIMEOUT_MS, caller));
    expect(await sessions(me.body.id)).toEqual(expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/));
    expect(await sessions(randomUUID())).toBeUndefined();
  }
});

test('orders → identity: the buyer of a purchase', async () => {
  const buyer = await verifiedBuyer(system);
  const me = await system.call('GET', '/api/auth/me', { token: buyer.token });
  const identity = identityClient(system.identity.url, TIMEOUT_MS, system.orders);
  expect(await identity.getUser(me.body.id)).toEqual({
    id: me.body.id,
    name: buyer.name,
    email: buyer.email,
    cpf: buyer.cpf,
    phone: buyer.phone,
    emailVerified: true,
  });
  expect(await identity.getUser(randomUUID())).toBeNull();
});

test('orders and courtesy → catalog: the event, and holds placed, confirmed and released', async () => {
  const { eventId } = await adminEvent(system, { maxAttendees: 5, price: '120.00' });
  for (const caller of [system.orders, system.courtesy]) {
    const catalog = catalogClient(system.catalog.url, TIMEOUT_MS, caller);
    const event = await catalog.getEvent(eventId);
    expect(event).toMatchObject({ id: eventId, price: '120.00', isActive: true });
    const holdId = `${caller.name}:${randomUUID()}`;
    const held = await catalog.hold(eventId, holdId, 2, { provisional: true });
    expect(held).toMatchObject({ holdId, quantity: 2, released: false, kept: 0, event: { id: eventId } });
    await catalog.confirm(eventId, holdId);
    await catalog.release(eventId, holdId, 1);
    expect((await catalog.getEvent(eventId)).currentAttendees).toBe(event.currentAttendees + 1);
  }
  // Courtesy alone reads every type, hidden ones too: the one a link names.
  const types = await catalogClient(system.catalog.url, TIMEOUT_MS, system.courtesy).ticketTypes(eventId);
  expect(types).toEqual([expect.objectContaining({ hidden: false, requiresDocument: false })]);
});

test('orders → payments: the charge of an order, and asking the provider about it', async () => {
  const { eventId } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  expect(bought.status).toBe(201);
  const { id: orderId, asaasPaymentId, amount } = bought.body.order;
  const me = await system.call('GET', '/api/auth/me', { token: buyer.token });
  const payments = paymentsClient(system.payments.url, TIMEOUT_MS, system.orders);

  // Asked again for the same order, payments answers the charge it already made.
  const charge = await payments.createCharge(orderId, {
    method: 'pix',
    amount,
    description: 'Ingresso',
    dueDate: new Date().toISOString().slice(0, 10),
    customer: { userId: me.body.id, name: buyer.name, cpf: buyer.cpf, email: buyer.email },
  });
  expect(charge).toMatchObject({ paymentId: asaasPaymentId, pixPayload: expect.any(String) });
  expect(await payments.checkCharge(orderId)).toEqual({
    paymentId: asaasPaymentId,
    providerStatus: 'PENDING',
    paid: false,
  });
});

test('orders → courtesy: a promotional link quoted, its use taken and given back', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const link = await system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 1, overridePrice: 80 },
  });
  expect(link.status).toBe(201);
  const courtesy = courtesyClient(system.courtesy.url, TIMEOUT_MS, system.orders);
  const quote = { linkId: link.body.id, overridePrice: '80.00', ticketType: link.body.ticketType };
  expect(link.body.ticketType).toEqual({ id: expect.any(String), name: expect.any(String) });
  const orderId = randomUUID();

  expect(await courtesy.findPromoLink(eventId, link.body.code)).toEqual(quote);
  expect(await courtesy.findPromoLink(eventId, 'NAOEXISTE')).toBeNull();
  expect(await courtesy.takePromoUse(orderId, { code: link.body.code, eventId })).toEqual(quote);
  expect(await courtesy.releasePromoUse(orderId)).toBe(true);
  expect(await courtesy.releasePromoUse(orderId)).toBe(false);
});

test('mail → certificates: the PDF a certificate e-mail attaches', async () => {
  const event = eventWithSessions({ sessions: 1, hours: 2 });
  const ticket = ticketOf(event, 'Rafael Nogueira');
  for (const [type, payload] of [
    ['event.changed', event],
    ['ticket.issued', ticket],
    ['ticket.checked-in', checkIn(ticket, event.sessions![0]!.id)],
  ] as const) {
    const envelope = await publishAsOwner(system.catalog, type, randomUUID(), payload as never);
    await waitFor(async () => (await system.certificates.db('inbox').where({ event_id: envelope.id })).length === 1);
  }
  const admin = await system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const token = admin.body.token as string;
  await system.call('PUT', `/api/events/${event.eventId}/certificate`, { token, body: { enabled: true } });
  await system.call('POST', `/api/events/${event.eventId}/certificates`, { token });
  const [certificate] = (await system.call('GET', `/api/events/${event.eventId}/certificates`, { token })).body;

  const certificatesUrl = system.certificates.url;
  const headers = linkHeadersFor(system.mail!.serviceAuth, certificatesUrl);
  const fetchAsMail = async (href: string) => fetch(href, { headers: await headers(href) });
  const pdf = await fetchAsMail(certificatePdfUrl(certificatesUrl, certificate.id));
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  expect((await fetchAsMail(certificatePdfUrl(certificatesUrl, randomUUID()))).status).toBe(404);
  // Only mail may read them.
  const asOrders = await fetch(certificatePdfUrl(certificatesUrl, certificate.id), {
    headers: { authorization: `Bearer ${await system.orders.serviceAuth.token('certificates')}` },
  });
  expect(asOrders.status).toBe(403);
});
