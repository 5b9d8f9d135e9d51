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
 * The wait after failure number `attempt` (1, 2, …): base × 2^(attempt−1), capped, with "equal jitter" (a random
 * point in the upper half), so the members that failed together in one outage do not all knock again at once.
 */
export function backoffDelayMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Transient failures: 1 s doubling to a 5 min cap (reached at the 10th failure, ~6 min in), then every 2.5–5 min
 * for as long as it takes: about 20 tries in the first hour, and never a dead letter for an outage.
 */
export const TRANSIENT_BASE_MS = 1000;
export const TRANSIENT_CAP_MS = 5 * 60_000;
/** An event failing transiently for longer than this is logged as an error on every further failure. */
export const STUCK_AFTER_MS = 60 * 60_000;
