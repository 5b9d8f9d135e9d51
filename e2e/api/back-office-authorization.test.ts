import { randomUUID } from 'node:crypto';
import { waitFor } from '@ticketing/testkit';
import type { Role } from '@ticketing/proto';
import { adminEvent, paidTicket, staffMember, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

/**
 * Who may call each route of the back office and of the door, checked through the gateway against the services'
 * own guards: an anonymous call is refused with 401, a caller without one of the route's roles with 403, and a
 * caller holding one gets the route's own answer to the request (an empty body is refused for what it lacks).
 */

type Caller = 'anonymous' | 'buyer' | 'doorStaff' | 'courtesyManager' | 'admin';
/** A route's roles; `anyone` is any signed-in account. */
type Access = readonly Role[] | 'anyone';

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  access: Access;
  /** What a caller holding the role gets; the withdrawal finds only the buyer's own (pending: 409) order. */
  answer: number | ((caller: Caller) => number);
  body?: unknown;
}

const ADMIN: Access = ['admin'];
const DOOR: Access = ['doorStaff', 'admin'];
const COURTESIES: Access = ['courtesyManager'];

let system: Awaited<ReturnType<typeof startSystem>>;
let routes: Route[];
/** The event the door staff work, and one they are not assigned to. */
let eventId: string;
let otherEventId: string;
let doorStaff: Awaited<ReturnType<typeof staffMember>>;

/** A new session (the matrix renews, and so ends, the first ones). */
async function signIn(email: string, password: string): Promise<string> {
  const login = await system.call('POST', '/api/auth/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`not signed in: ${JSON.stringify(login.body)}`);
  return login.body.token as string;
}
const signInAdmin = () => signIn('admin@educacaofarma.com.br', 'admin123');
const tokens: Partial<Record<Caller, string>> = {};
const roles: Partial<Record<Caller, Role[]>> = {};

beforeAll(async () => {
  system = await startSystem();
  const event = await adminEvent(system, { title: 'Jornada de Farmacovigilância' });
  const { adminToken } = event;
  eventId = event.eventId;
  otherEventId = (await adminEvent(system, { title: 'Simpósio de Farmácia Hospitalar' })).eventId;
  const buyer = await verifiedBuyer(system);
  tokens.buyer = buyer.token;
  tokens.admin = adminToken;
  doorStaff = await staffMember(system, adminToken, ['doorStaff'], { doorEvents: [eventId] });
  tokens.doorStaff = doorStaff.token;
  tokens.courtesyManager = (await staffMember(system, adminToken, ['courtesyManager'])).token;
  for (const caller of ['buyer', 'doorStaff', 'courtesyManager', 'admin'] as const) {
    roles[caller] = (await system.call('GET', '/api/auth/me', { token: tokens[caller] })).body.roles;
  }

  const order = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  const link = await system.call('POST', '/api/courtesy-links', {
    token: tokens.courtesyManager,
    body: { eventId, ticketCount: 2 },
  });
  if (order.status !== 201 || link.status !== 201) throw new Error('order or courtesy link not created');
  const orderId = order.body.order.id as string;
  const linkId = link.body.id as string;

  routes = [
    { method: 'GET', path: '/api/admin/events?page=1', access: ADMIN, answer: 200 },
    { method: 'POST', path: '/api/admin/events', access: ADMIN, body: {}, answer: 400 },
    { method: 'GET', path: `/api/admin/events/${eventId}`, access: ADMIN, answer: 200 },
    { method: 'PATCH', path: `/api/admin/events/${eventId}`, access: ADMIN, body: {}, answer: 400 },
    { method: 'POST', path: `/api/admin/events/${eventId}/image`, access: ADMIN, body: {}, answer: 422 },
    { method: 'POST', path: `/api/admin/events/${eventId}/duplicate`, access: ADMIN, answer: 201 },
    { method: 'POST', path: `/api/admin/events/${eventId}/cancel`, access: ADMIN, body: {}, answer: 400 },
    { method: 'GET', path: '/api/admin/sales', access: ADMIN, answer: 200 },
    { method: 'GET', path: `/api/admin/sales?eventId=${eventId}`, access: ADMIN, answer: 200 },
    { method: 'GET', path: '/api/admin/orders?q=Beatriz', access: ADMIN, answer: 200 },
    { method: 'GET', path: `/api/admin/orders/${orderId}`, access: ADMIN, answer: 200 },
    { method: 'POST', path: `/api/admin/orders/${orderId}/refund`, access: ADMIN, body: {}, answer: 400 },
    { method: 'GET', path: `/api/admin/tickets?eventId=${eventId}`, access: ADMIN, answer: 200 },
    { method: 'GET', path: `/api/admin/tickets/export.csv?eventId=${eventId}`, access: ADMIN, answer: 200 },
    { method: 'POST', path: `/api/admin/tickets/${randomUUID()}/resend`, access: ADMIN, answer: 404 },
    {
      method: 'POST',
      path: `/api/orders/${orderId}/withdraw`,
      access: 'anyone',
      answer: (caller) => (caller === 'buyer' ? 409 : 404),
    },
    { method: 'GET', path: `/api/courtesy-links/${linkId}/redemptions?page=1`, access: COURTESIES, answer: 200 },
    { method: 'GET', path: `/api/courtesy-links/${linkId}/redemptions.csv`, access: COURTESIES, answer: 200 },
    { method: 'GET', path: `/api/courtesy/events/${eventId}/ticket-types`, access: COURTESIES, answer: 200 },
    { method: 'GET', path: '/api/door/events', access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/tickets`, access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/search?q=Beatriz`, access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/counts`, access: DOOR, answer: 200 },
    { method: 'POST', path: '/api/door/readings', access: DOOR, body: {}, answer: 400 },
    // Door staff work only the events assigned to them: another event's door is closed to them.
    { method: 'GET', path: `/api/door/events/${otherEventId}/tickets`, access: DOOR, answer: onlyAdmins },
    { method: 'GET', path: `/api/door/events/${otherEventId}/search?q=Beatriz`, access: DOOR, answer: onlyAdmins },
    { method: 'GET', path: `/api/door/events/${otherEventId}/counts`, access: DOOR, answer: onlyAdmins },
    {
      method: 'POST',
      path: '/api/door/readings',
      access: DOOR,
      body: {
        deviceId: 'portaria-e2e-01',
        eventId: otherEventId,
        readings: [{ readingId: randomUUID(), claims: null, readAt: new Date().toISOString(), admitted: false }],
      },
      answer: onlyAdmins,
    },
    { method: 'GET', path: `/api/admin/users/door-staff?eventId=${eventId}`, access: ADMIN, answer: 200 },
    { method: 'PUT', path: '/api/admin/users/door-staff', access: ADMIN, body: {}, answer: 400 },
    { method: 'POST', path: '/api/auth/renew', access: 'anyone', answer: 200 },
  ];
}, 180_000);
afterAll(() => system?.stop());

/** What a door route of an event the door staff are not assigned to answers: 403 to them, 200 to admins. */
const onlyAdmins = (caller: Caller) => (caller === 'doorStaff' ? 403 : 200);

/** The status `route` answers `token` (none: anonymous) through the gateway; CSV answers included. */
async function statusOf(route: Route, token: string | undefined): Promise<number> {
  const response = await fetch(system.gatewayUrl + route.path, {
    method: route.method,
    headers: {
      ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: route.body === undefined ? undefined : JSON.stringify(route.body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** 401 for no session, 403 for a session without one of the route's roles, else the route's own answer. */
function expected(caller: Caller, { access, answer }: Route): number {
  if (caller === 'anonymous') return 401;
  if (access !== 'anyone' && !roles[caller]!.some((role) => access.includes(role))) return 403;
  return typeof answer === 'number' ? answer : answer(caller);
}

test('the callers hold the roles the matrix is about', () => {
  expect(roles).toEqual({
    buyer: [],
    doorStaff: ['doorStaff'],
    courtesyManager: ['courtesyManager'],
    admin: expect.arrayContaining(['admin']),
  });
});

test('every route of the back office and the door answers each caller as its roles say', async () => {
  const answers = [];
  for (const route of routes) {
    for (const caller of ['anonymous', 'buyer', 'doorStaff', 'courtesyManager', 'admin'] as const) {
      answers.push({ route: `${route.method} ${route.path}`, caller, status: await statusOf(route, tokens[caller]) });
    }
  }
  expect(answers).toEqual(
    routes.flatMap((route) =>
      (['anonymous', 'buyer', 'doorStaff', 'courtesyManager', 'admin'] as const).map((caller) => ({
        route: `${route.method} ${route.path}`,
        caller,
        status: expected(caller, route),
      })),
    ),
  );
}, 120_000);

test("the door's look-up through the gateway: no QR text, a CPF only whole, another event's guests not at all", async () => {
  const guest = await verifiedBuyer(system);
  const { qrText } = await paidTicket(system, guest, eventId);
  const digits = guest.cpf.replace(/\D/g, '');
  const token = await signIn(doorStaff.email, doorStaff.password);
  const search = async (q: string, event = eventId) =>
    system.call('GET', `/api/door/events/${event}/search?${new URLSearchParams({ q })}`, { token });

  const found = await search(guest.cpf);
  expect(found.status).toBe(200);
  expect(found.body.tickets).toEqual([expect.objectContaining({ holderName: guest.name })]);
  expect(JSON.stringify(found.body)).not.toContain(qrText);
  expect(JSON.stringify(found.body)).not.toContain(digits);
  expect((await search(digits)).body.tickets).toHaveLength(1);
  for (const part of [digits.slice(0, 3), guest.cpf.slice(0, 7), digits.slice(0, 9)])
    expect({ part, tickets: (await search(part)).body.tickets }).toEqual({ part, tickets: [] });
  expect((await search(guest.email.slice(0, guest.email.indexOf('@') + 1))).body.tickets).toEqual([]);
  expect((await search(guest.email)).body.tickets).toHaveLength(1);

  const elsewhere = await search(guest.cpf, otherEventId);
  expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
    status: 403,
    body: { message: 'Você não está escalado para a portaria deste evento' },
  });
}, 60_000);

test("the back office's 'Equipe de portaria' API: only verified accounts, and the door follows the list", async () => {
  const admin = await signInAdmin();
  const staffer = await staffMember(system, admin, ['doorStaff']);
  const listed = async () =>
    ((await system.call('GET', '/api/door/events', { token: staffer.token })).body as { id: string }[]).map(
      (event) => event.id,
    );
  expect(await listed()).not.toContain(otherEventId);

  const unknown = `ninguem.${randomUUID().slice(0, 8)}@example.com.br`;
  const refused = await system.call('PUT', '/api/admin/users/door-staff', {
    token: admin,
    body: { eventId: otherEventId, emails: [staffer.email, unknown] },
  });
  expect(refused.status).toBe(422);
  expect(refused.body.message).toContain(unknown);

  const assigned = await system.call('PUT', '/api/admin/users/door-staff', {
    token: admin,
    body: { eventId: otherEventId, emails: [staffer.email] },
  });
  expect(assigned).toMatchObject({ status: 200, body: { staff: [expect.objectContaining({ email: staffer.email })] } });
  await waitFor(async () => (await listed()).includes(otherEventId));
  await waitFor(
    async () =>
      (await system.call('GET', `/api/door/events/${otherEventId}/tickets`, { token: staffer.token })).status === 200,
  );

  const removed = await system.call('PUT', '/api/admin/users/door-staff', {
    token: admin,
    body: { eventId: otherEventId, emails: [] },
  });
  expect(removed).toMatchObject({ status: 200, body: { staff: [] } });
  await waitFor(
    async () =>
      (await system.call('GET', `/api/door/events/${otherEventId}/tickets`, { token: staffer.token })).status === 403,
  );
  await waitFor(async () => !(await listed()).includes(otherEventId));
}, 60_000);
