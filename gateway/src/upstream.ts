import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import type { Upstream, UpstreamName } from './routes.ts';

/**
 * Connections to the services, one pool per service, reused instead of opened per request. A kept connection is
 * let go a second before the service's `Keep-Alive: timeout` hint says the service would close it, so a request
 * never goes out on a connection the service is just closing. `timeoutMs` is the longest a service may stay silent
 * before its answer starts.
 */
export function createConnectionPools(upstreams: Map<UpstreamName, Upstream>, timeoutMs: number) {
  const pools = new Map<UpstreamName, Pool>();
  for (const { name, url } of upstreams.values()) {
    pools.set(
      name,
      new Pool(url.origin, { connections: 256, keepAliveTimeoutThreshold: 1000, headersTimeout: timeoutMs }),
    );
  }
  return {
    for: (upstream: Upstream) => pools.get(upstream.name)!,
    async destroy() {
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    },
  };
}

export type ConnectionPools = ReturnType<typeof createConnectionPools>;

export interface ServiceAnswer {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  /** The whole body when it is small, else the stream it flows through (which fails if the service breaks off). */
  body: Buffer | Readable;
}

/** What a service is sent: undici's own request options, handed on without copying. */
export interface ServiceRequest extends Dispatcher.DispatchOptions {
  headers: string[];
  /** The client's body, streamed on untouched; null when the request has none. */
  body: IncomingMessage | null;
  /** The longest silence within the answer; 0 for an event stream, whose silences last as long as they like. */
  bodyTimeout: number;
}

/**
 * Answers of a known length up to this size (most API answers) are read whole and sent on in one write, instead of
 * through a stream that costs more than the few bytes it carries; larger ones and event streams flow as they come.
 */
const WHOLE_BODY_MAX_BYTES = 64 * 1024;

const NO_BODY = Buffer.alloc(0);

/**
 * One request to a service over its pool. `answer` settles once the service has sent its headers and, for a small
 * answer, its whole body; a larger answer flows through a stream with backpressure. It rejects with the network
 * error when the service could not be reached, broke off or stayed silent too long before the answer was handed on;
 * after that, such a failure destroys the stream and `onBrokenStream` is told.
 */
export class ServiceCall implements Dispatcher.DispatchHandler {
  readonly answer: Promise<ServiceAnswer>;
  /** Whether the service had started its answer (when the call failed, a connection it let go cannot be why). */
  answered = false;
  private resolve!: (answer: ServiceAnswer) => void;
  private reject!: (error: Error) => void;
  private readonly onBrokenStream: (error: Error) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private abandoned = false;
  private result: ServiceAnswer | undefined;
  private stream: Readable | undefined;
  private chunks: Buffer[] = [];

  constructor(pool: Pool, request: ServiceRequest, onBrokenStream: (error: Error) => void) {
    this.onBrokenStream = onBrokenStream;
    this.answer = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    pool.dispatch(request, this);
  }

  /** Abandons the request: the connection to the service is closed, or the request never sent if still queued. */
  abort() {
    this.abandoned = true;
    this.controller?.abort(new Error('request abandoned'));
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    if (this.abandoned) this.abort();
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ) {
    // `100 Continue` and other interim answers: the final one follows.
    if (status < 200) return;
    this.answered = true;
    if (!(Number(headers['content-length']) <= WHOLE_BODY_MAX_BYTES)) {
      this.stream = new Readable({
        read: () => controller.resume(),
        destroy: (error, callback) => {
          // The client went away, or the stream failed: nothing more to read from the service.
          if (!controller.aborted) this.abort();
          callback(error);
        },
      });
    }
    this.result = { status, statusMessage: statusMessage ?? '', headers, body: this.stream ?? NO_BODY };
    if (this.stream) this.resolve(this.result);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (!this.stream) this.chunks.push(chunk);
    else if (!this.stream.push(chunk)) controller.pause();
  }

  onResponseEnd() {
    if (this.stream) return void this.stream.push(null);
    const { chunks } = this;
    if (chunks.length > 0) this.result!.body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.resolve(this.result!);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error) {
    if (!this.stream) return this.reject(error);
    if (!this.abandoned) this.onBrokenStream(error);
    this.stream.destroy(error);
  }
}
