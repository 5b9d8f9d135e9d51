import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueName } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { PUBLIC_DIR } from '../src/static.ts';
import { deleteRedisKeys, startGateway } from './support.ts';

const prefix = `${uniqueName('gateway_static')}:`;
const placeholder = await readFile(join(PUBLIC_DIR, 'index.html'), 'utf8');
const poster = randomBytes(2048);
let scratch: string;
/** No frontend built yet: STATIC_DIR does not exist. */
let bare: RunningGateway;
/** A built frontend at the root of STATIC_DIR, and a public folder with an event image. */
let built: RunningGateway;
/** The builds laid out one folder per frontend (`shell/`, `storefront/`, ...). */
let perFrontend: RunningGateway;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gateway-static-'));
  const dist = join(scratch, 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root">shell</div>');
  await writeFile(join(dist, 'assets', 'main.js'), 'console.log("shell")');
  // A build made with source maps: the gateway serves none of them.
  for (const map of ['main.js.map', 'main.js.map.br', 'main.js.map.gz', 'main.css.map']) {
    await writeFile(join(dist, 'assets', map), '{"version":3,"sources":["src/segredo.ts"]}');
  }
  const publicDir = join(scratch, 'public');
  await mkdir(join(publicDir, 'images', 'events'), { recursive: true });
  await writeFile(join(publicDir, 'index.html'), placeholder);
  await writeFile(join(publicDir, 'images', 'events', 'workshop.png'), poster);
  const layered = join(scratch, 'layered');
  await mkdir(join(layered, 'shell'), { recursive: true });
  await mkdir(join(layered, 'storefront'), { recursive: true });
  await writeFile(join(layered, 'shell', 'index.html'), '<!doctype html><div id="root">shell from its folder</div>');
  await writeFile(join(layered, 'storefront', 'remoteEntry.js'), 'var storefront = {}');
  await writeFile(join(layered, 'storefront', 'mf-manifest.json'), '{}');
  await mkdir(join(layered, 'storefront', 'assets'), { recursive: true });
  await writeFile(join(layered, 'storefront', 'assets', 'Home.0123456789.js'), 'export {}');
  await writeFile(join(layered, 'runtime-config.json'), '{"remotes":{}}');

  bare = await startGateway({ STATIC_DIR: join(scratch, 'not-built-yet'), REDIS_PREFIX: prefix });
  built = await startGateway({ STATIC_DIR: dist, REDIS_PREFIX: prefix }, { publicDir });
  perFrontend = await startGateway({ STATIC_DIR: layered, REDIS_PREFIX: prefix });
});
afterAll(async () => {
  await Promise.all([bare?.close(), built?.close(), perFrontend?.close()]);
  await rm(scratch, { recursive: true, force: true });
  await deleteRedisKeys(prefix);
});

test('the placeholder page is a pt-BR page naming the product, with a link to the events', () => {
  expect(placeholder).toContain('<html lang="pt-BR">');
  expect(placeholder).toContain('<title>Ingressos</title>');
  expect(placeholder).toMatch(/está chegando/);
  expect(placeholder).toContain('href="/api/events"');
});

test('/ shows the placeholder while no frontend is built', async () => {
  const response = await fetch(`${bare.url}/`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(await response.text()).toBe(placeholder);
});

test.each(['/eventos', '/event/3f1c2a9e', '/cortesia?code=FARMA2025', '/verify-email?email=ana%40example.com'])(
  'the page path %s falls back to the application index',
  async (path) => {
    const response = await fetch(bare.url + path);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(placeholder);
  },
);

test('a missing file is a 404, not the index', async () => {
  for (const path of ['/assets/app.js', '/images/events/nao-existe.png', '/favicon.ico']) {
    const response = await fetch(bare.url + path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Rota não encontrada' });
  }
});

test('/api paths stay JSON, never the page', async () => {
  const response = await fetch(`${bare.url}/api/eventos`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  expect(await response.json()).toEqual({ message: 'Rota não encontrada' });
});

test('other methods on page paths are 404 JSON', async () => {
  const response = await fetch(`${bare.url}/eventos`, { method: 'POST', body: 'x' });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ message: 'Rota não encontrada' });
});

test('a built frontend replaces the placeholder, its files are served, page paths get its index', async () => {
  for (const path of ['/', '/eventos', '/profile']) {
    const page = await fetch(built.url + path);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<!doctype html><div id="root">shell</div>');
  }
  const script = await fetch(`${built.url}/assets/main.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toMatch(/javascript/);
  expect(await script.text()).toBe('console.log("shell")');
});

test('source maps are never served, even when the build holds them', async () => {
  for (const path of [
    '/assets/main.js.map',
    '/assets/main.js.map.br',
    '/assets/main.js.map.gz',
    '/assets/main.css.map',
  ]) {
    const response = await fetch(built.url + path, { headers: { 'accept-encoding': 'br, gzip' } });
    expect({ path, status: response.status, body: await response.text() }).toEqual({
      path,
      status: 404,
      body: expect.not.stringContaining('segredo'),
    });
  }
});

test('event images are served from /images with long cache headers', async () => {
  const response = await fetch(`${built.url}/images/events/workshop.png`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(response.headers.get('cache-control')).toBe('max-age=2592000');
  expect(Buffer.from(await response.arrayBuffer())).toEqual(poster);
});

test('with one folder per frontend the shell is the index and the remotes are served', async () => {
  const page = await fetch(`${perFrontend.url}/eventos`);
  expect(await page.text()).toBe('<!doctype html><div id="root">shell from its folder</div>');
  const remote = await fetch(`${perFrontend.url}/storefront/remoteEntry.js`);
  expect(remote.status).toBe(200);
  expect(await remote.text()).toBe('var storefront = {}');
});

test('hashed build files are kept for a year; the files naming them are revalidated on every load', async () => {
  const hashed = await fetch(`${perFrontend.url}/storefront/assets/Home.0123456789.js`);
  expect(hashed.status).toBe(200);
  expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const revalidated = ['/', '/runtime-config.json', '/storefront/remoteEntry.js', '/storefront/mf-manifest.json'];
  for (const path of revalidated) {
    const response = await fetch(perFrontend.url + path);
    expect({ path, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({
      path,
      status: 200,
      cacheControl: 'no-cache',
    });
  }
  const index = await fetch(`${built.url}/index.html`);
  expect(index.headers.get('cache-control')).toBe('no-cache');
});

test('a revalidated build file that has not changed is answered 304 without its body; a changed one in full', async () => {
  const entry = `${perFrontend.url}/storefront/remoteEntry.js`;
  const first = await fetch(entry);
  const lastModified = first.headers.get('last-modified')!;
  expect(lastModified).toBeTruthy();

  // As a browser revalidates (fetch() would add `no-cache`, which asks for the whole file).
  const revalidate = (since: string) =>
    fetch(entry, { headers: { 'if-modified-since': since, 'cache-control': 'max-age=0' } });
  const unchanged = await revalidate(lastModified);
  expect(unchanged.status).toBe(304);
  expect(await unchanged.text()).toBe('');

  const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
  const changed = await revalidate(older);
  expect(changed.status).toBe(200);
  expect(await changed.text()).toBe('var storefront = {}');
});
