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

export interface ErrorAnswer {
  status: number;
  body: { message: string; errors?: unknown };
}

/**
 * The answer to a failure, as `{ message }`: pt-BR for the user, nothing internal leaked on a 500. Infrastructure
 * that is down for a moment (the database restarting, a collaborator unreachable) is a 503: try again soon.
 */
export function errorAnswer(error: unknown, logger: Logger, request: { method: string; path: string }): ErrorAnswer {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: error.errors ? { message: error.message, errors: error.errors } : { message: error.message },
    };
  }
  if (error instanceof ZodError)
    return { status: 400, body: { message: error.issues[0]?.message ?? 'Dados inválidos' } };
  const status = statusOf(error);
  if (status !== undefined) return { status, body: { message: CLIENT_FAULTS[status] ?? 'Requisição inválida' } };
  if (isTransient(error)) {
    logger.warn({ err: error, ...request }, 'dependency unavailable');
    return { status: 503, body: { message: SERVICE_UNAVAILABLE } };
  }
  logger.error({ err: error, ...request }, 'unhandled error');
  return { status: 500, body: { message: 'Erro interno' } };
}

/** Turns every failure into its `errorAnswer`. */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { status, body } = errorAnswer(error, logger, { method: ctx.method, path: ctx.path });
      ctx.status = status;
      ctx.body = body;
    }
  };
}
