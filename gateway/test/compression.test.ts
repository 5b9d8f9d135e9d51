import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { RunningGateway } from '../src/gateway.ts';
import { rawRequest, startGatewayWithBuild, type Echo, type FakeService } from './support.ts';

/** A script as a build writes it: repetitive text, well over the 1 KB below which nothing is compressed. */
const script = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const evento${i} = { titulo: "Workshop ${i}", vagas: ${i} };`).join(
    '\n',
  ),
);
/** A build file with its brotli and gzip versions beside it. */
const prebuilt = Buffer.from(`/* ${randomBytes(16).toString('hex')} */\n${script.toString()}`);
const prebuiltBr = brotliCompressSync(prebuilt);
const prebuiltGz = gzipSync(prebuilt);
let catalog: FakeService;
let gateway: RunningGateway;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ gateway, catalog, close } = await startGatewayWithBuild({
    'index.html': `<!doctype html><title>Ingressos</title>${'<p>Eventos</p>'.repeat(200)}`,
    'assets/main.0123456789.js': script,
    'assets/tiny.js': 'export {}',
    'assets/home.9876543210.js': prebuilt,
    'assets/home.9876543210.js.br': prebuiltBr,
    'assets/home.9876543210.js.gz': prebuiltGz,
  }));
});
afterAll(() => close());

const DECODE = { br: brotliDecompressSync, gzip: gunzipSync } as const;

test.each(['br', 'gzip'] as const)(
  'a script asked for with accept-encoding: %s comes compressed and decodes to the file',
  async (encoding) => {
    const response = await rawRequest(gateway.url, '/assets/main.0123456789.js', {
      headers: { 'accept-encoding': encoding },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.bytes.length).toBeLessThan(script.length / 4);
    expect(DECODE[encoding](response.bytes)).toEqual(script);
  },
);

test('brotli is preferred when the browser accepts both', async () => {
  const response = await rawRequest(gateway.url, '/assets/main.0123456789.js', {
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
  });
  expect(response.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(response.bytes)).toEqual(script);
});

test('files compressed by the build are sent as they are, for each encoding', async () => {
  for (const [encoding, bytes] of [
    ['br', prebuiltBr],
    ['gzip', prebuiltGz],
  ] as const) {
    const response = await rawRequest(gateway.url, '/assets/home.9876543210.js', {
      headers: { 'accept-encoding': encoding },
    });
    expect({ encoding, status: response.status, contentEncoding: response.headers['content-encoding'] }).toEqual({
      encoding,
      status: 200,
      contentEncoding: encoding,
    });
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.bytes).toEqual(bytes);
  }
});

test('without accept-encoding, and for tiny files, the bytes go as they are', async () => {
  const plain = await rawRequest(gateway.url, '/assets/home.9876543210.js');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.bytes).toEqual(prebuilt);
  const tiny = await rawRequest(gateway.url, '/assets/tiny.js', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(tiny.headers['content-encoding']).toBeUndefined();
  expect(tiny.body).toBe('export {}');
});

test('the page is compressed too', async () => {
  const response = await rawRequest(gateway.url, '/eventos', { headers: { 'accept-encoding': 'br' } });
  expect(response.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(response.bytes).toString()).toMatch(/^<!doctype html><title>Ingressos<\/title>/);
});

test('a service’s JSON is compressed on its way through, with its status and headers', async () => {
  const body = JSON.stringify({ descricao: 'Programação completa do simpósio. '.repeat(100) });
  const response = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      const { hostname, port } = new URL(gateway.url);
      const request = http.request(
        {
          hostname,
          port,
          method: 'POST',
          path: '/api/events',
          agent: false,
          headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', 'x-echo-status': '201' },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve({ status: answer.statusCode ?? 0, headers: answer.headers, bytes: Buffer.concat(chunks) }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    },
  );
  expect(response.status).toBe(201);
  expect(response.headers['content-encoding']).toBe('gzip');
  expect(response.headers['x-upstream']).toBe('catalog');
  expect(response.headers.vary).toMatch(/accept-encoding/i);
  const echo = JSON.parse(gunzipSync(response.bytes).toString()) as Echo;
  expect(echo.body).toBe(body);
});

test('server-sent events are not compressed: each event arrives when it is sent', async () => {
  const { hostname, port } = new URL(gateway.url);
  const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const headers = { 'accept-encoding': 'br, gzip', 'x-echo-events': '1' };
    http.get({ hostname, port, path: '/api/events/stream', headers, agent: false }, resolve).on('error', reject);
  });
  expect(stream.headers['content-type']).toBe('text/event-stream');
  expect(stream.headers['content-encoding']).toBeUndefined();
  // The first event arrives while the service still holds the stream open.
  const first = await new Promise<string>((resolve) =>
    stream.once('data', (chunk: Buffer) => resolve(chunk.toString())),
  );
  expect(first).toMatch(/^data: primeiro evento/);
  for (const open of catalog.eventStreams.splice(0)) open.end();
  await new Promise((resolve) => stream.resume().once('end', resolve));
});

test('a service’s JSON comes in brotli when the client takes both, and a HEAD of it gets its headers alone', async () => {
  const path = `/api/events?busca=${'simposio-'.repeat(200)}`;
  const full = await rawRequest(gateway.url, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  expect(full.status).toBe(200);
  expect(full.headers['content-encoding']).toBe('br');
  expect(full.headers.vary).toMatch(/accept-encoding/i);
  expect((JSON.parse(brotliDecompressSync(full.bytes).toString()) as Echo).url).toBe(path);
  const head = await rawRequest(gateway.url, path, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
  expect(head.status).toBe(200);
  expect(head.headers['content-type']).toMatch(/^application\/json/);
  expect(head.bytes.length).toBe(0);
});
