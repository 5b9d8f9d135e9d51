import { setTimeout as delay } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { AppError, inSpan, SpanKind, type Logger, type Tracer } from '@ticketing/platform';
import { paymentsMessages } from '@ticketing/proto';
import type { AsaasErrorBody } from './types.ts';

export interface AsaasClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Attempts per call (and per look-up-then-create round) before the provider counts as unavailable. */
  maxAttempts: number;
  /** First back-off gap; it doubles on every attempt. */
  retryDelayMs: number;
  logger: Logger;
  /** Each call to the provider is a client span (its answer's status, or the failure). */
  tracer?: Tracer;
}

export const USER_AGENT = 'ticketing-payments/1.0';

/** Why one call to the provider did not give an answer the caller can use. */
export class ProviderError extends Error {
  readonly kind: 'retryable' | 'refused' | 'not_found' | 'unauthorized';
  readonly status: number | null;
  readonly descriptions: string[];

  constructor(kind: ProviderError['kind'], status: number | null, detail: string, descriptions: string[] = []) {
    super(detail);
    this.kind = kind;
    this.status = status;
    this.descriptions = descriptions;
  }
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** False for calls that must not be repeated blindly (creates): the caller looks up before trying again. */
  retry?: boolean;
}

export interface AsaasHttp {
  call<T>(method: string, path: string, options?: CallOptions): Promise<T>;
  /** Runs `attempt` until it succeeds, backing off on retryable failures, within the attempt budget. */
  withRetries<T>(what: string, attempt: () => Promise<T>): Promise<T>;
}

/** The provider's refusal as the user sees it: the fixed pt-BR text plus the provider's own description. */
export function refusal(error: ProviderError): AppError {
  const detail = error.descriptions.filter(Boolean).join(' ');
  return new AppError(
    422,
    detail ? `${paymentsMessages.providerRefused}: ${detail}` : paymentsMessages.providerRefused,
  );
}

export const unavailable = () => new AppError(503, paymentsMessages.providerUnavailable);

/** Maps a provider failure to what the caller of the adapter sees. */
export function toAppError(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.kind === 'refused') return refusal(error);
  return unavailable();
}

/** HTTP to the Asaas API v3: `access_token` key, JSON, a timeout per call and bounded back-off on 429/5xx. */
export function createAsaasHttp(options: AsaasClientOptions): AsaasHttp {
  const { baseUrl, apiKey, timeoutMs, maxAttempts, retryDelayMs, logger, tracer } = options;

  function once<T>(method: string, path: string, callOptions: CallOptions): Promise<T> {
    if (!tracer) return send<T>(method, path, callOptions);
    const attributes = { 'http.request.method': method, 'url.path': path, 'peer.service': 'asaas' };
    return inSpan(tracer, `${method} asaas`, { kind: SpanKind.CLIENT, attributes }, () =>
      send<T>(method, path, callOptions),
    );
  }

  async function send<T>(method: string, path: string, { query, body }: CallOptions): Promise<T> {
    const url = new URL(baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    let status: number;
    let text: string;
    try {
      // undici's own request rather than fetch: a charge takes several calls, and fetch's streams cost more CPU.
      const response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: {
          access_token: apiKey,
          'user-agent': USER_AGENT,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.statusCode;
      text = await response.body.text().catch(() => '');
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `timeout after ${timeoutMs} ms` : String(error);
      throw new ProviderError('retryable', null, `${method} ${path}: ${reason}`);
    }
    if (status >= 200 && status <= 299) {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ProviderError('retryable', status, `${method} ${path}: answer is not JSON`);
      }
    }
    const descriptions = parseErrors(text);
    const detail = `${method} ${path}: HTTP ${status}`;
    if (status === 429 || status >= 500) throw new ProviderError('retryable', status, detail);
    if (status === 404) throw new ProviderError('not_found', 404, detail, descriptions);
    if (status === 401 || status === 403) {
      throw new ProviderError('unauthorized', status, detail, descriptions);
    }
    throw new ProviderError('refused', status, detail, descriptions);
  }

  async function withRetries<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    for (let number = 1; ; number++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        if (error.kind === 'unauthorized') {
          logger.error({ call: what, status: error.status }, 'payment provider refused the API key');
          throw unavailable();
        }
        if (error.kind !== 'retryable') throw error;
        if (number >= maxAttempts) {
          logger.warn({ call: what, attempts: number, reason: error.message }, 'payment provider unavailable');
          throw unavailable();
        }
        const wait = retryDelayMs * 2 ** (number - 1);
        logger.warn(
          { call: what, attempt: number, reason: error.message, retryInMs: wait },
          'provider call failed, retrying',
        );
        await delay(wait);
      }
    }
  }

  return {
    call<T>(method: string, path: string, callOptions: CallOptions = {}) {
      const what = `${method} ${path}`;
      if (callOptions.retry === false) return once<T>(method, path, callOptions);
      return withRetries(what, () => once<T>(method, path, callOptions));
    },
    withRetries,
  };
}

function parseErrors(text: string): string[] {
  try {
    const body = JSON.parse(text) as AsaasErrorBody;
    return (body.errors ?? []).map((error) => error.description ?? error.code ?? '').filter(Boolean);
  } catch {
    return [];
  }
}
