import { Router } from '@koa/router';
import { parseInput, requireRole, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import { doorReadingsInput, doorSearchQuery, doorTicketsQuery, type DoorReadingsView } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { assertMayWorkDoor } from '../domain/door-access.ts';
import { syncReadings } from '../domain/door-readings.ts';
import { searchDoorTickets } from '../domain/door-search.ts';
import { doorSessionOf } from '../domain/door-sessions.ts';
import { doorTickets } from '../domain/door-tickets.ts';
import type { DoorLimits } from './staffer-limit.ts';
import { doorEventOf } from './door-event.ts';

/**
 * What a scanner device needs beyond single readings: the event's ticket list to decide offline, the readings it
 * decided by itself and sends later, and the manual look-up. Door staff of the event and administrators.
 */
export function doorDeviceRoutes(deps: TicketsDeps, verifyToken: TokenVerifier, limits: DoorLimits): Router {
  const router = new Router({ prefix: '/api/door' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);

  router.get('/events/:eventId/tickets', doorStaff, async (ctx) => {
    const eventId = await doorEventOf(deps, ctx.state.user as AuthUser, ctx.params.eventId);
    const { after, deviceId } = parseInput(doorTicketsQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await doorTickets(deps, { eventId, after, deviceId });
  });

  router.get('/events/:eventId/search', doorStaff, limits.searches, async (ctx) => {
    const eventId = await doorEventOf(deps, ctx.state.user as AuthUser, ctx.params.eventId);
    const { q, sessionId } = parseInput(doorSearchQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await searchDoorTickets(deps, { eventId, q, sessionId });
  });

  router.post('/readings', doorStaff, limits.readings, async (ctx) => {
    const input = parseInput(doorReadingsInput, ctx.request.body);
    const user = ctx.state.user as AuthUser;
    await assertMayWorkDoor(deps, user, input.eventId);
    if (input.sessionId) await doorSessionOf(deps, input.eventId, input.sessionId);
    const results = await syncReadings(deps, { ...input, scannedBy: user.id, staffName: user.name });
    ctx.body = { results } satisfies DoorReadingsView;
  });

  return router;
}
