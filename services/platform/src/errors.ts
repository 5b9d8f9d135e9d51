/** The one error type a use case throws for an outcome the caller must see; `message` is shown to users (pt-BR). */
export class AppError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 502 | 503;
  /** Itemised problems shown under the message (a file's rows), answered as `errors`. */
  readonly errors: string[] | undefined;

  constructor(status: AppError['status'], message: string, errors?: string[]) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Não autenticado. Faça login para continuar.') => new AppError(401, message);
export const forbidden = (message = 'Acesso negado') => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message = 'Muitas requisições. Tente novamente em alguns instantes.') =>
  new AppError(429, message);
