import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import { trace } from '../context.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[\w.:-]{1,100}$/;

/** The request id the caller sent, when it is safe to log and pass on; a new one otherwise. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  // Node keeps one value of this header (a repeated one is joined with `, `, which the pattern refuses).
  const incoming = headers[REQUEST_ID_HEADER] as string | undefined;
  return incoming !== undefined && SAFE_ID.test(incoming) ? incoming : randomUUID();
}

/** Keeps the gateway's request id (or makes one) for the logs and events of this request. */
export function requestId(): Middleware {
  return (ctx, next) => {
    const id = requestIdOf(ctx.req.headers);
    ctx.state.requestId = id;
    ctx.res.setHeader(REQUEST_ID_HEADER, id);
    return trace.run({ requestId: id, causationId: null }, next);
  };
}
