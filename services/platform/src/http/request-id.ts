import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { trace } from '../context.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[\w.:-]{1,100}$/;

/** Keeps the gateway's request id (or makes one) for the logs and events of this request. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get(REQUEST_ID_HEADER);
    const id = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set(REQUEST_ID_HEADER, id);
    await trace.run({ requestId: id, causationId: null }, next);
  };
}
