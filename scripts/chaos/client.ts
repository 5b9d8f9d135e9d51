import { setTimeout as sleep } from 'node:timers/promises';
import type { Timeline } from './timeline.ts';

/** An HTTP status, or `network` when no answer came (refused, reset, timed out). */
export type Outcome = number | 'network';

/** "Not now": the service, or something it needs, is down. A person tries again, as the load does. */
const isRefusal = (outcome: Outcome) => outcome === 'network' || outcome === 502 || outcome === 503 || outcome === 504;
/** The longest a request is tried again before it counts as never answered. */
const ANSWER_WITHIN_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;

export interface Answer {
  status: number;
  body: any;
  /** Whether an earlier try went unanswered (so a create may have been done by it). */
  retried: boolean;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

/** A connection reset before any answer: a kept connection the server had just let go. Browsers send again. */
function wasReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
}

/**
 * The load's way into the product, as a browser's: every attempt is counted by the fault under way while it ran (or
 * `steady`) and its outcome. A refusal is tried again until answered, as a person would; it is a problem only when
 * nothing was down. Any 5xx that is not a refusal is a problem whenever it happens.
 */
export function createClient(baseUrl: string, timeline: Timeline) {
  const counts = new Map<string, Map<string, number>>();
  const problems: string[] = [];

  function tally(moment: string, outcome: Outcome) {
    const byOutcome = counts.get(moment) ?? new Map<string, number>();
    counts.set(moment, byOutcome.set(String(outcome), (byOutcome.get(String(outcome)) ?? 0) + 1));
  }

  async function attempt(method: string, path: string, options: RequestOptions) {
    const init: RequestInit = {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    };
    try {
      let response: Response;
      try {
        response = await fetch(baseUrl + path, init);
      } catch (error) {
        if (!wasReset(error)) throw error;
        response = await fetch(baseUrl + path, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      }
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text
      }
      const retryAfter = Number(response.headers.get('retry-after') ?? 0);
      return { outcome: response.status as Outcome, body, retryAfter };
    } catch {
      return { outcome: 'network' as Outcome, body: undefined, retryAfter: 0 };
    }
  }

  async function call(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const deadline = Date.now() + ANSWER_WITHIN_MS;
    const route = `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id').replace(/\?.*/, '')}`;
    for (let tries = 1; ; tries++) {
      const started = Date.now();
      const { outcome, body, retryAfter } = await attempt(method, path, options);
      const fault = timeline.faultBetween(started, Date.now());
      tally(fault ?? 'steady', outcome);
      // Too many tries (a refused purchase tried again counts against the account's budget): waited out as told.
      const slowDown = outcome === 429;
      if (outcome !== 'network' && outcome < 500 && !slowDown) return { status: outcome, body, retried: tries > 1 };
      const said = (body as { message?: string } | undefined)?.message ?? '';
      if (!slowDown && !isRefusal(outcome))
        problems.push(`${route} answered ${outcome} ${said}${fault ? ` during ${fault}` : ''}`);
      else if (!slowDown && !fault) problems.push(`${route} refused (${outcome} ${said}) while nothing was down`);
      if (Date.now() > deadline) {
        problems.push(`${route} never answered within ${ANSWER_WITHIN_MS / 1000} s`);
        throw new Error(`${route} never answered`);
      }
      await sleep(slowDown ? Math.max(1, retryAfter) * 1000 : Math.min(250 * tries, 2000));
    }
  }

  return { call, counts, problems };
}

export type Client = ReturnType<typeof createClient>;
