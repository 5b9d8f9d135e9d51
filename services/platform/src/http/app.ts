import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Router } from '@koa/router';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import { AppError } from '../errors.ts';
import { errorMiddleware } from './errors.ts';
import { health, type HealthOptions } from './health.ts';
import { observe } from './observe.ts';
import { requestId } from './request-id.ts';
import { serverSpans } from './server-span.ts';
import type { Tracer } from '../tracing.ts';

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Each request gets a server span of this tracer. */
  tracer?: Tracer;
  health: HealthOptions;
  router?: Router;
  /** JSON bodies above this are refused with 413 before any parsing work. */
  jsonLimit?: string;
}

/** The Koa app every service serves: ids, spans, logs, metrics, errors as `{message}`, health and its routes. */
export function createHttpApp({
  logger,
  metrics,
  tracer,
  health: checks,
  router,
  jsonLimit = '100kb',
}: HttpAppOptions): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true;
  app.use(requestId());
  if (tracer) app.use(serverSpans(tracer));
  app.use(observe(logger, metrics));
  app.use(errorMiddleware(logger));
  app.use(health(checks, metrics));
  // DELETE too: deleting an account carries the password in its body.
  app.use(
    koaBody({
      json: true,
      jsonStrict: true,
      jsonLimit,
      multipart: false,
      urlencoded: false,
      text: false,
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    }),
  );
  if (router) {
    app.use(router.routes());
    const methodNotAllowed = () => new AppError(405, 'Método não permitido');
    app.use(router.allowedMethods({ throw: true, methodNotAllowed, notImplemented: methodNotAllowed }));
  }
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { message: 'Rota não encontrada' };
  });
  return app;
}
