import { trace } from '../context.ts';
import type { ServiceAuth } from '../service-auth.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * Another service did not do what was asked. `status` is its HTTP status (null when it could not be reached or did
 * not answer in time); `message` is its pt-BR `{message}` when it sent one. A network failure keeps the socket's
 * `code` (ECONNREFUSED, ETIMEDOUT…) so a consumer that called it is retried later rather than dead-lettered.
 */
export class CollaboratorError extends Error {
  readonly service: string;
  readonly status: number | null;
  readonly code: string | undefined;

  constructor(service: string, status: number | null, message: string, code?: string) {
    super(message);
    this.service = service;
    this.status = status;
    this.code = code;
  }
}

export interface JsonClient {
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return (error as { name?: unknown })?.name === 'TimeoutError' ? 'ETIMEDOUT' : 'ECONNRESET';
}

/**
 * JSON over HTTP to one collaborator, with a deadline, forwarding the request id for the logs and presenting the
 * caller's service token (audience: the collaborator) to its `/internal` routes.
 */
export function jsonClient(service: string, baseUrl: string, timeoutMs: number, auth: ServiceAuth): JsonClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = {
        accept: 'application/json',
        authorization: `Bearer ${await auth.token(service)}`,
      };
      const requestId = trace.current()?.requestId;
      if (requestId) headers[REQUEST_ID_HEADER] = requestId;
      if (body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      let text: string;
      try {
        response = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        const code = networkCode(error);
        throw new CollaboratorError(service, null, `${service} unreachable (${code})`, code);
      }
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!response.ok) {
        const message = (parsed as { message?: unknown } | undefined)?.message;
        throw new CollaboratorError(
          service,
          response.status,
          typeof message === 'string' ? message : `${service} answered ${response.status}`,
        );
      }
      return parsed as T;
    },
  };
}
