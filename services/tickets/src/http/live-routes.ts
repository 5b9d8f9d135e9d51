import { PassThrough } from 'node:stream';
import { Router } from '@koa/router';
import { AppError, parseInput, requireRole, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import { doorMessages, doorSessionQuery, type DoorCountsView } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { mayKeepWatching } from '../domain/door-access.ts';
import { doorCounts, type LiveCounts } from '../domain/door-counts.ts';
import { doorSessionOf } from '../domain/door-sessions.ts';
import type { LiveStreams } from '../domain/live-streams.ts';
import { doorEventOf } from './door-event.ts';

/** A comment this often keeps proxies and the browser from taking a quiet stream for a dead one. */
const HEARTBEAT_MS = 15_000;

const countsMessage = (view: DoorCountsView) => `event: counts\ndata: ${JSON.stringify(view)}\n\n`;
const closedMessage = (message: string) => `event: closed\ndata: ${JSON.stringify({ message })}\n\n`;

export interface LiveOptions {
  live: LiveCounts;
  streams: LiveStreams;
  /** How often an open stream's token and assignment are checked again. */
  recheckMs: number;
}

/**
 * How the door is going, for door staff of the event and administrators: the counts once (JSON), or as Server-Sent
 * Events that start with the counts and follow every change. A stream lasts while the token that opened it is good
 * (checked again every `recheckMs`: an ended session, a dropped role or a removed assignment closes it) and counts
 * against its account's cap of open streams. A stream's request is logged and measured when it opens.
 */
export function liveRoutes(
  deps: Pick<TicketsDeps, 'db'>,
  { live, streams, recheckMs }: LiveOptions,
  verifyToken: TokenVerifier,
): Router {
  const router = new Router({ prefix: '/api/door/events' });
  const doorStaff = requireRole(verifyToken, ['doorStaff', 'admin']);

  router.get('/:eventId/counts', doorStaff, async (ctx) => {
    const eventId = await doorEventOf(deps, ctx.state.user as AuthUser, ctx.params.eventId);
    const { sessionId } = parseInput(doorSessionQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await doorCounts(deps, eventId, sessionId);
  });

  router.get('/:eventId/live', doorStaff, async (ctx) => {
    const user = ctx.state.user as AuthUser;
    const eventId = await doorEventOf(deps, user, ctx.params.eventId);
    const { session } = await doorSessionOf(deps, eventId, parseInput(doorSessionQuery, ctx.query).sessionId);
    // The role check read this header's bearer token: the same token is checked again while the stream lasts.
    const token = ctx.get('authorization').slice('Bearer '.length);
    const counted = await streams.open(user.id);
    if (!counted) throw new AppError(429, doorMessages.tooManyStreams);
    const stream = new PassThrough();
    let stop: () => void;
    try {
      // The first counts are written before the response starts: a failed read is still an error answer.
      stop = await live.watch(eventId, session.id, (view) => stream.write(countsMessage(view)));
    } catch (error) {
      counted.release();
      throw error;
    }
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const recheck = setInterval(async () => {
      if (await mayKeepWatching(deps, verifyToken, token, eventId)) return void (await counted.touch());
      if (!stream.writableEnded) stream.end(closedMessage(doorMessages.liveEnded));
    }, recheckMs);
    // Koa destroys the body when the client goes away or the server closes the connection.
    stream.once('close', () => {
      clearInterval(heartbeat);
      clearInterval(recheck);
      stop();
      counted.release();
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
