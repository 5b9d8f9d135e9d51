import { Router } from '@koa/router';
import {
  badRequest,
  forbidden,
  parseInput,
  parseParams,
  requireAdmin,
  requireRole,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import {
  doorAdmitInput,
  doorMessages,
  doorTicketIdParam,
  resetTicketInput,
  resetTicketParams,
  verifyTicketInput,
} from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { assertMayWorkDoor } from '../domain/door-access.ts';
import { admitFromLookUp } from '../domain/door-admit.ts';
import { resetTicket } from '../domain/reset-ticket.ts';
import { doorSessionOf } from '../domain/door-sessions.ts';
import type { Door } from '../domain/door.ts';
import { doorEventOf } from './door-event.ts';
import type { DoorLimits } from './staffer-limit.ts';
import { toResetView, toScanView } from './views.ts';

/** Resolves once every check passed; else rejects with the first refusal in their order, not in time. */
async function passedInOrder(checks: (Promise<unknown> | undefined)[]): Promise<void> {
  for (const check of await Promise.allSettled(checks)) if (check.status === 'rejected') throw check.reason;
}

/**
 * The door API: door staff (at the events assigned to them) and administrators verify tickets, by their QR code or
 * from the look-up; only administrators let a used one in again.
 */
export function doorRoutes(deps: TicketsDeps, door: Door, verifyToken: TokenVerifier, limits: DoorLimits): Router {
  const router = new Router({ prefix: '/api' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);

  // Every reading is answered 200 with `success` (the scanner shows `message`); only bad input is an error.
  router.post('/verify-ticket', doorStaff, async (ctx) => {
    const input = parseInput(verifyTicketInput, ctx.request.body);
    const user = ctx.state.user as AuthUser;
    // Admitting any event's ticket ('Todos os eventos') is for administrators only.
    if (!input.eventId && !user.isAdmin) throw forbidden(doorMessages.eventRequired);
    // A session is one of an event's: a door checking in every event has none to name.
    if (input.sessionId && !input.eventId) throw badRequest(doorMessages.eventRequired);
    // The budget is spent and the staffer's event and session checked while the door reads the ticket; a spent budget
    // answers first, as when it is checked before the route.
    const allowed = passedInOrder([
      limits.spendReading(ctx),
      input.eventId ? assertMayWorkDoor(deps, user, input.eventId) : undefined,
      input.eventId && input.sessionId ? doorSessionOf(deps, input.eventId, input.sessionId) : undefined,
    ]);
    const result = await door.verify({
      qrText: input.qrCodeData,
      doorEventId: input.eventId,
      sessionId: input.sessionId,
      deviceId: input.deviceId,
      scannedBy: user.id,
      staffName: user.name,
      allowed,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toScanView(result);
  });

  router.post('/door/events/:eventId/tickets/:ticketId/admit', doorStaff, limits.readings, async (ctx) => {
    const user = ctx.state.user as AuthUser;
    const eventId = await doorEventOf(deps, user, ctx.params.eventId);
    const ticketId = parseInput(doorTicketIdParam, ctx.params.ticketId);
    const { deviceId, sessionId } = parseInput(doorAdmitInput, ctx.request.body ?? {});
    if (sessionId) await doorSessionOf(deps, eventId, sessionId);
    const result = await admitFromLookUp(deps, door, {
      eventId,
      ticketId,
      sessionId,
      deviceId,
      scannedBy: user.id,
      staffName: user.name,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toScanView(result);
  });

  router.post('/reset-ticket/:orderId', requireAdmin(verifyToken), async (ctx) => {
    const user = ctx.state.user as AuthUser;
    const { orderId } = parseParams(resetTicketParams, ctx.params);
    const { sessionId, ticketId } = parseInput(resetTicketInput, ctx.request.body ?? {});
    ctx.body = toResetView(
      await resetTicket(deps, { orderId, ticketId, resetBy: user.id, sessionId: sessionId ?? null }),
    );
  });

  return router;
}
