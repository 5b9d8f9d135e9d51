import { PassThrough } from 'node:stream';
import { Router } from '@koa/router';
import { parseInput, requireRole, type TokenVerifier } from '@ticketing/platform';
import type { DoorCountsView } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { doorCounts, type LiveCounts } from '../domain/door-counts.ts';
import { eventIdParam } from './input.ts';

/** A comment this often keeps proxies and the browser from taking a quiet stream for a dead one. */
const HEARTBEAT_MS = 15_000;

const countsMessage = (view: DoorCountsView) => `event: counts\ndata: ${JSON.stringify(view)}\n\n`;

/**
 * How the door is going, for door staff and administrators: the counts once (JSON), or as Server-Sent Events that
 * start with the counts and follow every change. A stream's request is logged and measured when it opens.
 */
export function liveRoutes(deps: Pick<TicketsDeps, 'db'>, live: LiveCounts, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/door/events' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);

  router.get('/:eventId/counts', doorStaff, async (ctx) => {
    const eventId = parseInput(eventIdParam, ctx.params.eventId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await doorCounts(deps, eventId);
  });

  router.get('/:eventId/live', doorStaff, async (ctx) => {
    const eventId = parseInput(eventIdParam, ctx.params.eventId);
    const stream = new PassThrough();
    // The first counts are written before the response starts: a failed read is still an error answer.
    const stop = await live.watch(eventId, (view) => stream.write(countsMessage(view)));
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    // Koa destroys the body when the client goes away or the server closes the connection.
    stream.once('close', () => {
      clearInterval(heartbeat);
      stop();
    });
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = stream;
  });

  return router;
}
