import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { EventView } from '@ticketing/proto';
import { uniqueName } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { closedPort, deleteRedisKeys, startGateway } from './support.ts';

/** The frontends' server-rendering module, as `npm test` builds it. */
const RENDER_MODULE = fileURLToPath(new URL('../../frontends/dist-server/render.cjs', import.meta.url));
const PUBLIC_URL = 'https://ingressos.example.com.br';
const prefix = `${uniqueName('gateway_render')}:`;

const event: EventView = {
  id: '3f1c2a9e-0000-4000-8000-000000000001',
  title: 'Workshop de Boas Práticas </script><script>alert(1)</script>',
  description: 'Um dia de imersão nas exigências da RDC 658/2022.\n\nEstudos de caso reais.',
  date: '2026-12-05T12:00:00.000Z',
  location: 'Centro de Convenções Rebouças, São Paulo – SP',
  price: '390.00',
  imageUrl: '/images/events/workshop-bpf-sao-paulo.svg',
  maxAttendees: 50,
  currentAttendees: 8,
  remaining: 42,
  isActive: true,
  listed: false,
  onSale: true,
  sessions: [
    {
      id: '3f1c2a9e-0000-4000-8000-000000000001',
      startsAt: '2026-12-05T12:00:00.000Z',
      endsAt: '2026-12-05T16:00:00.000Z',
      title: null,
    },
  ],
  ticketTypes: [],
  installments: { max: 1, minValue: '5.00' },
};

/** A congress of two days, 08:00–18:00 each. */
const congress: EventView = {
  ...event,
  id: '3f1c2a9e-0000-4000-8000-000000000002',
  title: 'Congresso Brasileiro de Assuntos Regulatórios',
  date: '2026-12-06T11:00:00.000Z',
  listed: true,
  sessions: [
    {
      id: '3f1c2a9e-0000-4000-8000-0000000000d1',
      startsAt: '2026-12-06T11:00:00.000Z',
      endsAt: '2026-12-06T21:00:00.000Z',
      title: 'Dia 1',
    },
    {
      id: '3f1c2a9e-0000-4000-8000-0000000000d2',
      startsAt: '2026-12-07T11:00:00.000Z',
      endsAt: '2026-12-07T21:00:00.000Z',
      title: 'Dia 2',
    },
  ],
};

/** A catalog standing in for the real one: the listing, one event, 404 for any other. */
let catalog: Server;
let catalogUrl: string;
let catalogReads: string[] = [];
/** Whom each read was for (X-Forwarded-For), as the services' per-address limits see it. */
let readersOf: (string | undefined)[] = [];
let gateway: RunningGateway;
let catalogDown: RunningGateway;
let noModule: RunningGateway;

beforeAll(async () => {
  catalog = createServer((request, response) => {
    catalogReads.push(request.url ?? '');
    readersOf.push(request.headers['x-forwarded-for'] as string | undefined);
    const body =
      request.url === '/api/events'
        ? [event, congress]
        : [event, congress].find((one) => request.url === `/api/events/${one.id}`);
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { message: 'Evento não encontrado' }));
  });
  await new Promise<void>((resolve) => catalog.listen(0, '127.0.0.1', resolve));
  catalogUrl = `http://127.0.0.1:${(catalog.address() as AddressInfo).port}`;
  const settings = { RENDER_MODULE, PUBLIC_URL, REDIS_PREFIX: prefix };
  gateway = await startGateway({ ...settings, CATALOG_URL: catalogUrl });
  catalogDown = await startGateway({ ...settings, CATALOG_URL: `http://127.0.0.1:${await closedPort()}` });
  noModule = await startGateway({ REDIS_PREFIX: prefix, CATALOG_URL: catalogUrl });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), catalogDown?.close(), noModule?.close()]);
  await new Promise((resolve) => catalog?.close(resolve));
  await deleteRedisKeys(prefix);
});

/** The page as a link preview reads it: HTML, no script run. */
async function page(base: string, path: string) {
  const response = await fetch(base + path, { headers: { 'user-agent': 'WhatsApp/2.24.6 A', accept: 'text/html' } });
  const html = await response.text();
  const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="server-state">/.exec(html)?.[1];
  const metaOf = (key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1]?.replaceAll('&amp;', '&');
  return { response, html, root, metaOf };
}

const jsonBlock = (html: string, id: string) =>
  JSON.parse(
    new RegExp(`<script type="application/(?:ld\\+)?json"${id ? ` id="${id}"` : ''}>(.*?)</script>`).exec(html)![1]!,
  );

test("an event's page holds its content, its head and the data it was rendered with", async () => {
  readersOf = [];
  const { response, html, root, metaOf } = await page(gateway.url, `/event/${event.id}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  // The read counts against the reader's address, not the gateway's.
  expect(readersOf).toEqual(['127.0.0.1']);
  expect(root).toContain('Workshop de Boas Práticas &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(root).toContain('5 de dezembro de 2026');
  expect(root).toContain('09:00');
  expect(root).toContain('R$\u00a0390,00');
  expect(root).toContain('42 vagas restantes');

  expect(html).toContain(
    `<title>Workshop de Boas Práticas &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; · Educação Farma</title>`,
  );
  expect(metaOf('og:title')).toBe(
    `Workshop de Boas Práticas &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; · Educação Farma`,
  );
  expect(metaOf('og:description')).toMatch(/^5 de dezembro de 2026, 09:00 · Centro de Convenções Rebouças/);
  expect(metaOf('og:image')).toBe(`${PUBLIC_URL}/images/events/workshop-bpf-sao-paulo.png`);
  expect([metaOf('og:image:width'), metaOf('og:image:height')]).toEqual(['1200', '675']);
  expect([metaOf('og:type'), metaOf('og:locale'), metaOf('twitter:card')]).toEqual([
    'website',
    'pt_BR',
    'summary_large_image',
  ]);
  expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/event/${event.id}">`);
  // Unlisted: reached by its link only.
  expect(metaOf('robots')).toBe('noindex');

  const structured = jsonBlock(html.slice(html.indexOf('application/ld+json') - 14), '');
  expect(structured).toMatchObject({
    '@type': 'Event',
    name: event.title,
    startDate: '2026-12-05T09:00:00-03:00',
    endDate: '2026-12-05T13:00:00-03:00',
    location: { '@type': 'Place', name: event.location },
    offers: { price: '390.00', priceCurrency: 'BRL', availability: 'https://schema.org/InStock' },
  });
  const state = jsonBlock(html, 'server-state');
  expect(
    state.queries.map((query: { queryKey: unknown; state: { data: unknown } }) => [query.queryKey, query.state.data]),
  ).toEqual([[['events', event.id], event]]);
  // Nothing in the data closes its element early.
  expect(html.match(/<\/script><script>alert/g)).toBeNull();
});

test("an event of several days shows its days, its hours and its schedule, and ends with its last session's end", async () => {
  const { response, html, root, metaOf } = await page(gateway.url, `/event/${congress.id}`);
  expect(response.status).toBe(200);
  expect(root).toContain('6 e 7 de dezembro de 2026');
  expect(root).toContain('08:00–18:00');
  expect(root).toContain('Programação');
  for (const day of ['Dia 1', '6 de dezembro de 2026', 'Dia 2', '7 de dezembro de 2026']) expect(root).toContain(day);
  expect(metaOf('og:description')).toMatch(/^6 e 7 de dezembro de 2026 · 08:00–18:00 · Centro de Convenções Rebouças/);
  expect(jsonBlock(html.slice(html.indexOf('application/ld+json') - 14), '')).toMatchObject({
    '@type': 'Event',
    startDate: '2026-12-06T08:00:00-03:00',
    endDate: '2026-12-07T18:00:00-03:00',
  });
});

test('a promotional link renders the event, its price waiting for the code, under the same canonical URL', async () => {
  const { response, html, root } = await page(gateway.url, `/events/${event.id}?promo=FARMA10`);
  expect(response.status).toBe(200);
  expect(root).toContain('42 vagas restantes');
  expect(root).toContain('aria-label="Verificando código promocional"');
  expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/event/${event.id}">`);
});

test("the page's CSP allows exactly the inline styles it carries, and still no inline script", async () => {
  // The home page carries none; a promotional link's price is a skeleton of a set width while the code is checked.
  for (const [path, styled] of [
    ['/', false],
    [`/events/${event.id}?promo=FARMA10`, true],
  ] as const) {
    const { response, html } = await page(gateway.url, path);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self';");
    const hashes = /style-src-attr 'unsafe-hashes' (.*)$/.exec(policy)?.[1]?.split(' ') ?? [];
    const styles = new Set([...html.matchAll(/ style="([^"]*)"/g)].map((match) => match[1]));
    expect(styles.size > 0).toBe(styled);
    expect(hashes).toHaveLength(styles.size);
  }
});

test('the home page lists the events, with the site’s own head', async () => {
  const { response, html, root, metaOf } = await page(gateway.url, '/');
  expect(response.status).toBe(200);
  expect(root).toContain('Próximo evento');
  expect(root).toContain('Perguntas frequentes');
  expect(html).toContain('<title>Início · Educação Farma</title>');
  expect(metaOf('og:image')).toBe(`${PUBLIC_URL}/images/share.png`);
  expect(metaOf('robots')).toBeUndefined();
  expect(jsonBlock(html.slice(html.indexOf('application/ld+json') - 14), '')['@type']).toBe('Organization');
});

test('an unknown event answers 404 with a page of its own, kept out of search engines', async () => {
  const { response, html, metaOf } = await page(gateway.url, '/event/nao-existe');
  expect(response.status).toBe(404);
  expect(html).toContain('<title>Evento não encontrado · Educação Farma</title>');
  expect(metaOf('robots')).toBe('noindex');
});

test('with the catalog down, or no module, or a page behind a login, the page renders in the browser', async () => {
  const index = await (await fetch(`${noModule.url}/login`)).text();
  expect(index).toContain('<div id="root"></div>');
  for (const [base, path] of [
    [catalogDown.url, `/event/${event.id}`],
    [noModule.url, `/event/${event.id}`],
    [gateway.url, '/profile'],
  ] as const) {
    const response = await fetch(base + path);
    expect({ path, status: response.status, body: await response.text() }).toEqual({ path, status: 200, body: index });
  }
  const metrics = await (await fetch(`${catalogDown.opsUrl}/metrics`)).text();
  expect(metrics).toMatch(/page_renders_total\{outcome="failed"[^}]*\} 1\n/);
});

test('files and API calls are never rendered', async () => {
  catalogReads = [];
  const api = await fetch(`${gateway.url}/api/events`);
  expect(await api.json()).toEqual([event, congress]);
  expect((await fetch(`${gateway.url}/runtime-config.json`)).headers.get('content-type')).toMatch(/json/);
  expect(catalogReads).toEqual(['/api/events']);
});
