import { randomUUID } from 'node:crypto';
import type { Role } from '@ticketing/proto';
import { adminEvent, staffMember, startSystem, verifiedBuyer } from './support.ts';

/**
 * Who may call each route of the back office and of the door, checked through the gateway against the services'
 * own guards: an anonymous call is refused with 401, a caller without one of the route's roles with 403, and a
 * caller holding one gets the route's own answer to the request (an empty body is refused for what it lacks).
 */

type Caller = 'anonymous' | 'buyer' | 'doorStaff' | 'courtesyManager' | 'admin';
/** A route's roles; `anyone` is any signed-in account. */
type Access = readonly Role[] | 'anyone';

interface Route {
  method: 'GET' | 'POST' | 'PATCH';
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
const tokens: Partial<Record<Caller, string>> = {};
const roles: Partial<Record<Caller, Role[]>> = {};

beforeAll(async () => {
  system = await startSystem();
  const { eventId, adminToken } = await adminEvent(system, { title: 'Jornada de Farmacovigilância' });
  const buyer = await verifiedBuyer(system);
  tokens.buyer = buyer.token;
  tokens.admin = adminToken;
  tokens.doorStaff = (await staffMember(system, adminToken, ['doorStaff'])).token;
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
    { method: 'GET', path: '/api/door/events', access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/tickets`, access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/search?q=Beatriz`, access: DOOR, answer: 200 },
    { method: 'GET', path: `/api/door/events/${eventId}/counts`, access: DOOR, answer: 200 },
    { method: 'POST', path: '/api/door/readings', access: DOOR, body: {}, answer: 400 },
    { method: 'POST', path: '/api/auth/renew', access: 'anyone', answer: 200 },
  ];
}, 180_000);
afterAll(() => system?.stop());

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
