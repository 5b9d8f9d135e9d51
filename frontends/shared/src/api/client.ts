import { bearer, expireSession, getToken } from '../session.ts';

/** A non-OK answer; `message` is the server's pt-BR message, ready to show. */
export class ApiError extends Error {
  readonly status: number;
  /** Itemised problems some answers list under the message (a mass-send file's lines: 'Linha 3: e-mail inválido'). */
  readonly errors: string[];

  constructor(status: number, message: string, errors: string[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

export const isApiError = (error: unknown, ...statuses: number[]): error is ApiError =>
  error instanceof ApiError && (statuses.length === 0 || statuses.includes(error.status));

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as multipart when it is FormData. */
  body?: unknown;
  /** Public reads (a courtesy link by its code) go without the session. */
  anonymous?: boolean;
  /**
   * Password checks (profile changes, account deletion) answer 401 for a wrong password: that is an error to
   * show, not an expired session.
   */
  keepSessionOn401?: boolean;
  /** Extra request headers (e.g. `Idempotency-Key`, so a repeated order is the same order). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Services answer `{ message }`; a proxy or a crash may answer plain text or nothing. */
function messageOf(response: Response, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: the text itself is the message
  }
  return text.trim() || response.statusText || `Erro ${response.status}`;
}

function errorsOf(text: string): string[] {
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(body.errors)) return body.errors.filter((item): item is string => typeof item === 'string');
  } catch {
    // not JSON: no itemised problems
  }
  return [];
}

/**
 * Calls `/api<path>` with the session, JSON in and out; a 401 on a call made with the session ends it, unless the
 * stored token changed while the call was on its way (a renewal in this or another tab superseded the one it
 * carried): the call is then made once more with the stored token.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  let token = options.anonymous ? null : getToken();
  let response = await send(path, options, token);
  const stored = getToken();
  if (response.status === 401 && token && stored && stored !== token) {
    token = stored;
    response = await send(path, options, token);
  }
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401 && token && !options.keepSessionOn401) expireSession();
    throw new ApiError(response.status, messageOf(response, text), errorsOf(text));
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

function send(path: string, options: ApiOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...bearer(token) };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(`/api${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
}
