import { Router } from '@koa/router';
import {
  forbidden,
  parseInput,
  requireAdmin,
  requireRole,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { resetTicket } from '../domain/reset-ticket.ts';
import { createDoor } from '../domain/door.ts';
import { verifyTicketInput } from './input.ts';
import { toResetView, toScanView } from './views.ts';

/** The door API: door staff and administrators verify tickets; only administrators let a used one in again. */
export function doorRoutes(deps: TicketsDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);
  const door = createDoor(deps);

  // Every reading is answered 200 with `success` (the scanner shows `message`); only bad input is an error.
  router.post('/verify-ticket', doorStaff, async (ctx) => {
    const input = parseInput(verifyTicketInput, ctx.request.body);
    const user = ctx.state.user as AuthUser;
    // Admitting any event's ticket ('Todos os eventos') is for administrators only.
    if (!input.eventId && !user.isAdmin) throw forbidden(doorMessages.eventRequired);
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

  router.post('/reset-ticket/:orderId', requireAdmin(verifyToken), async (ctx) => {
    const user = ctx.state.user as AuthUser;
    ctx.body = toResetView(await resetTicket(deps, { orderId: ctx.params.orderId!, resetBy: user.id }));
  });

  return router;
}
