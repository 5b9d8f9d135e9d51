import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { trace } from '../context.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[\w.:-]{1,100}$/;

/** Keeps the gateway's request id (or makes one) for the logs and events of this request. */
export function requestId(): Middleware {
  return (ctx, next) => {
    // Node keeps one value of this header (a repeated one is joined with `, `, which the pattern refuses).
    const incoming = ctx.req.headers[REQUEST_ID_HEADER] as string | undefined;
    const id = incoming !== undefined && SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.res.setHeader(REQUEST_ID_HEADER, id);
    return trace.run({ requestId: id, causationId: null }, next);
  };
}
