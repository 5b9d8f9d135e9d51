import type { Context, Middleware } from 'koa';
import type { SessionUser } from '../domain/sessions.ts';
import { TooManyAttempts } from '../domain/login-throttle.ts';

/** The caller's address: Koa reads it from the gateway's X-Forwarded-For (the app trusts its proxy). */
export const clientIp = (ctx: Context): string => ctx.ip || ctx.req.socket.remoteAddress || '';

/** The session `requireUser` verified for this request. */
export const sessionOf = (ctx: Context): SessionUser => ctx.state.user as SessionUser;

/** A throttled password attempt also says, in `Retry-After`, when to try again. */
export const retryAfter: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (error instanceof TooManyAttempts) ctx.set('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
};
