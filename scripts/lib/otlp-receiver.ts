import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as a collector receives it over OTLP/HTTP JSON (ids in hex), with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  links: { traceId: string; spanId: string }[];
}

interface KeyValue {
  key: string;
  value: { stringValue?: string };
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'service' | 'links'> & { links?: ReceivedSpan['links'] })[] }[];
  }[];
}

/**
 * The trace endpoint of an OpenTelemetry collector (`POST /v1/traces`, OTLP/HTTP with JSON bodies), keeping every
 * span in memory: what the services export when OTEL_EXPORTER_OTLP_ENDPOINT points at `url`.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = Buffer.concat(chunks);
      const request = JSON.parse(
        String(req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body),
      ) as ExportRequest;
      for (const { resource, scopeSpans = [] } of request.resourceSpans ?? []) {
        const service = resource?.attributes?.find(({ key }) => key === 'service.name')?.value.stringValue ?? '';
        for (const { spans: received = [] } of scopeSpans) {
          for (const { traceId, spanId, parentSpanId, name, kind, links = [] } of received) {
            spans.push({ service, traceId, spanId, parentSpanId: parentSpanId ?? '', name, kind, links });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
