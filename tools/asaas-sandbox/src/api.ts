import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorBody, invalid, notFound } from './api-error.ts';
import type { Route, Store } from './store.ts';
import type { ApiFault, RecordedRequest } from './types.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const sendError = (res: ServerResponse, error: ApiError) =>
  sendJson(res, error.status, errorBody(error.code, error.message));

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Calls a `hold` fault keeps waiting until they are released. */
export interface HeldCalls {
  wait(): Promise<void>;
  /** Lets every held call go on; answers how many there were. */
  release(): number;
  readonly count: number;
}

export function heldCalls(): HeldCalls {
  let waiting: (() => void)[] = [];
  return {
    wait: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release() {
      const released = waiting;
      waiting = [];
      for (const go of released) go();
      return released.length;
    },
    get count() {
      return waiting.length;
    },
  };
}

/**
 * The API under `/v3`: the `access_token` header, then the next matching fault (its status, a held call, or an
 * answer that never comes), then the route. Every call but the sandbox's own controls is recorded.
 */
export function apiHandler(
  store: Store,
  routes: Route[],
  held: HeldCalls,
  { apiKey, closing }: { apiKey?: string; closing: AbortSignal },
) {
  function takeFault(method: string, path: string): ApiFault | undefined {
    const index = store.faults.api.findIndex(
      (fault) => !fault.match || fault.match === method || fault.match === `${method} ${path}`,
    );
    return index === -1 ? undefined : store.faults.api.splice(index, 1)[0];
  }

  return async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname.slice('/v3'.length) || '/';
    const query = Object.fromEntries(url.searchParams);
    const raw = await readBody(req);
    const key = req.headers['access_token'];
    if (typeof key !== 'string' || !key || (apiKey !== undefined && key !== apiKey)) {
      return sendError(res, new ApiError(401, 'invalid_access_token', 'A chave de API fornecida é inválida.'));
    }
    let body: Record<string, unknown> = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return sendError(res, invalid('invalid_request', 'O corpo da requisição não é um JSON válido.'));
      }
    }
    const control = path.startsWith('/sandbox/');
    const recorded: RecordedRequest = { method, path, query, body: raw.trim() ? body : undefined };
    if (!control) store.requests.push(recorded);
    const fault = control ? undefined : takeFault(method, path);
    if (fault?.status) {
      recorded.fault = fault.status;
      return sendJson(res, fault.status, errorBody('fault', 'Falha simulada pelo sandbox.'));
    }
    if (fault?.hold) {
      recorded.fault = 'held';
      await held.wait();
      if (closing.aborted) return;
    }
    const route = routes.find(([verb, pattern]) => verb === method && pattern.test(path));
    if (!route) return sendError(res, notFound());
    try {
      const params = route[1].exec(path)!.slice(1).map(decodeURIComponent);
      const answer = await route[2](params, query, body);
      if (fault?.timeout) {
        recorded.fault = 'timeout';
        return; // the work is done; the answer never comes (the socket closes with the sandbox or the caller)
      }
      sendJson(res, 200, answer);
    } catch (error) {
      if (error instanceof ApiError) return sendError(res, error);
      throw error;
    }
  };
}
