import { Router } from '@koa/router';
import type { Context } from 'koa';
import {
  forbidden,
  parseInput,
  requireAdmin,
  requireRole,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import { doorAdmitInput, doorMessages } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { assertMayWorkDoor } from '../domain/door-access.ts';
import { admitFromLookUp } from '../domain/door-admit.ts';
import { resetTicket } from '../domain/reset-ticket.ts';
import type { Door } from '../domain/door.ts';
import { doorEventOf } from './door-event.ts';
import { ticketIdParam, verifyTicketInput } from './input.ts';
import type { DoorLimits } from './staffer-limit.ts';
import { toResetView, toScanView } from './views.ts';

/**
 * The door API: door staff (at the events assigned to them) and administrators verify tickets, by their QR code or
 * from the look-up; only administrators let a used one in again.
 */
export function doorRoutes(deps: TicketsDeps, door: Door, verifyToken: TokenVerifier, limits: DoorLimits): Router {
  const router = new Router({ prefix: '/api' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);

  /** The reading's input, once the staffer may read at its event (admitting any event's ticket is for admins). */
  async function readingAllowed(ctx: Context, user: AuthUser) {
    const input = parseInput(verifyTicketInput, ctx.request.body);
    if (!input.eventId && !user.isAdmin) throw forbidden(doorMessages.eventRequired);
    if (input.eventId) await assertMayWorkDoor(deps, user, input.eventId);
    return input;
  }

  // Every reading is answered 200 with `success` (the scanner shows `message`); only bad input is an error.
  router.post('/verify-ticket', doorStaff, async (ctx) => {
    const user = ctx.state.user as AuthUser;
    // The budget is spent while the staffer's event is read, one wait for both: neither records the reading, and a
    // spent budget still answers first, as when it is checked before the route.
    const [spent, allowed] = await Promise.allSettled([limits.spendReading(ctx), readingAllowed(ctx, user)]);
    if (spent.status === 'rejected') throw spent.reason;
    if (allowed.status === 'rejected') throw allowed.reason;
    const input = allowed.value;
    const result = await door.verify({
      qrText: input.qrCodeData,
      doorEventId: input.eventId,
      deviceId: input.deviceId,
      scannedBy: user.id,
      staffName: user.name,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toScanView(result);
  });

  router.post('/door/events/:eventId/tickets/:ticketId/admit', doorStaff, limits.readings, async (ctx) => {
    const user = ctx.state.user as AuthUser;
    const eventId = await doorEventOf(deps, user, ctx.params.eventId);
    const ticketId = parseInput(ticketIdParam, ctx.params.ticketId);
    const { deviceId } = parseInput(doorAdmitInput, ctx.request.body ?? {});
    const result = await admitFromLookUp(deps, door, {
      eventId,
      ticketId,
      deviceId,
      scannedBy: user.id,
      staffName: user.name,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toScanView(result);
  });

  router.post('/reset-ticket/:orderId', requireAdmin(verifyToken), async (ctx) => {
    const user = ctx.state.user as AuthUser;
    ctx.body = toResetView(await resetTicket(deps, { orderId: ctx.params.orderId!, resetBy: user.id }));
  });

  return router;
}
