import { Router } from '@koa/router';
import {
  attachment,
  CSV_CONTENT_TYPE,
  parseInput,
  requireAdmin,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import { participantsFilter, participantsQuery, ticketIdParam, type TicketResendView } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { exportEventParticipants } from '../domain/participants-export.ts';
import { listEventParticipants } from '../domain/participants.ts';
import { resendTicket } from '../domain/resend-ticket.ts';

/**
 * The back office's participants (administrators only): an event's tickets listed and exported as a spreadsheet,
 * and the ticket e-mail sent again. The export sits below /api/admin/tickets/, the part of the site the gateway
 * sends here.
 */
export function participantsRoutes(deps: TicketsDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/admin/tickets' });
  const admin = requireAdmin(verifyToken);

  router.get('/', admin, async (ctx) => {
    const query = parseInput(participantsQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listEventParticipants(deps, query);
  });

  router.get('/export.csv', admin, async (ctx) => {
    const filter = parseInput(participantsFilter, ctx.query);
    const { fileName, csv } = await exportEventParticipants(deps, filter);
    ctx.set({ 'Cache-Control': 'no-store', 'Content-Disposition': attachment(fileName) });
    ctx.type = CSV_CONTENT_TYPE;
    ctx.body = csv;
  });

  router.post('/:ticketId/resend', admin, async (ctx) => {
    const ticketId = parseInput(ticketIdParam, ctx.params.ticketId);
    const user = ctx.state.user as AuthUser;
    const sent = await resendTicket(deps, { ticketId, resentBy: user.id });
    ctx.status = 202;
    ctx.body = {
      message: `O e-mail do ingresso será reenviado para ${sent.holderEmail}`,
      ...sent,
    } satisfies TicketResendView;
  });

  return router;
}
