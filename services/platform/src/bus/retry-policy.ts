import { CollaboratorError } from '../http/json-client.ts';

// Connection loss, shutdown, resource limits, serialization and deadlock: the event is fine, the moment is not.
const TRANSIENT_SQLSTATE = /^(08|53|57P|40001|40P01)/;
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);
/**
 * node-postgres tells of a connection the server ended (a restart) or lost in words alone, with no code; knex puts
 * the query in front of them (`select … - Connection terminated unexpectedly`).
 */
const LOST_CONNECTION = /(?:^| - )Connection terminated|is not queryable$/;

/**
 * A failure that says nothing about the event: our infrastructure, or a collaborator that could not be reached,
 * timed out, failed (5xx), answered a body its contract rejects or asked us to slow down (429). Its 4xx refusals
 * are about the event itself.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof CollaboratorError) {
    return !error.refused || error.status === 429;
  }
  const { code, name, syscall } = (error ?? {}) as { code?: unknown; name?: unknown; syscall?: unknown };
  if (name === 'KnexTimeoutError') return true;
  // A server reached through its Unix socket is away while it restarts: the socket file is gone.
  if (code === 'ENOENT' && syscall === 'connect') return true;
  if (error instanceof Error && code === undefined && LOST_CONNECTION.test(error.message)) return true;
  return typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_CODES.has(code));
}

/**
 * Transient failures: 1 s doubling to a 5 min cap (reached at the 10th failure, ~6 min in), then every 2.5–5 min
 * for as long as it takes: about 20 tries in the first hour, and never a dead letter for an outage.
 */
export const TRANSIENT_BASE_MS = 1000;
export const TRANSIENT_CAP_MS = 5 * 60_000;
/** An event failing transiently for longer than this is logged as an error on every further failure. */
export const STUCK_AFTER_MS = 60 * 60_000;
