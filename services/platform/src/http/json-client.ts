import { request, type Dispatcher } from 'undici';
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

/** The socket's code (ECONNREFUSED…); a deadline or undici timeout is ETIMEDOUT, undici's other failures a reset. */
function networkCode(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'TimeoutError' || (typeof code === 'string' && /^UND_ERR_\w*TIMEOUT$/.test(code))) return 'ETIMEDOUT';
  return typeof code === 'string' && !code.startsWith('UND_ERR') ? code : 'ECONNRESET';
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
      let status: number;
      let text: string;
      try {
        // undici's own request: what fetch adds (WHATWG streams, Request and Response objects) costs a service
        // making several calls an order more CPU than the call itself.
        const response = await request(base + path, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.statusCode;
        text = await response.body.text();
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
      if (status < 200 || status > 299) {
        const message = (parsed as { message?: unknown } | undefined)?.message;
        throw new CollaboratorError(
          service,
          status,
          typeof message === 'string' ? message : `${service} answered ${status}`,
        );
      }
      return parsed as T;
    },
  };
}
