import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { isTransient } from '../bus/retry-policy.ts';
import { SERVICE_UNAVAILABLE } from '../clients/catalog.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** Client faults raised by libraries (body parser, router) carry only an English status text. */
const CLIENT_FAULTS: Record<number, string> = {
  400: 'Requisição inválida: verifique os dados enviados (JSON malformado?)',
  405: 'Método não permitido',
  413: 'Requisição grande demais',
  415: 'Tipo de conteúdo não suportado: envie JSON',
  422: 'Dados inválidos',
};

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * Turns every failure into `{ message }`: pt-BR for the user, nothing internal leaked on a 500. Infrastructure
 * that is down for a moment (the database restarting, a collaborator unreachable) is a 503: try again soon.
 */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof AppError) {
        ctx.status = error.status;
        ctx.body = error.errors ? { message: error.message, errors: error.errors } : { message: error.message };
      } else if (error instanceof ZodError) {
        ctx.status = 400;
        ctx.body = { message: error.issues[0]?.message ?? 'Dados inválidos' };
      } else if (statusOf(error) !== undefined) {
        const status = statusOf(error)!;
        ctx.status = status;
        ctx.body = { message: CLIENT_FAULTS[status] ?? 'Requisição inválida' };
      } else if (isTransient(error)) {
        logger.warn({ err: error, method: ctx.method, path: ctx.path }, 'dependency unavailable');
        ctx.status = 503;
        ctx.body = { message: SERVICE_UNAVAILABLE };
      } else {
        logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { message: 'Erro interno' };
      }
    }
  };
}
