import { PNG } from 'pngjs';
import { adminEvent, PUBLIC_URL, startSystem } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem({ mail: false });
});
afterAll(() => system.stop());

/** What a link preview (WhatsApp, Instagram, Slack) reads: the HTML as served, no script run. */
async function preview(path: string) {
  const response = await fetch(system.gatewayUrl + path, {
    headers: { 'user-agent': 'WhatsApp/2.24.6.77 A', accept: 'text/html' },
  });
  const html = await response.text();
  const og = (property: string) =>
    new RegExp(`<meta property="og:${property}" content="([^"]*)">`).exec(html)?.[1]?.replaceAll('&amp;', '&');
  return { status: response.status, og };
}

test("a shared event link previews with the event's own title, description and image", async () => {
  const { eventId } = await adminEvent(system, {
    title: 'Simpósio de Farmacovigilância — Belo Horizonte',
    description: 'Notificação de eventos adversos, sinais de segurança e o papel do farmacêutico.',
    imageUrl: '/images/events/simposio-farmacovigilancia-belo-horizonte.svg',
  });
  const { status, og } = await preview(`/event/${eventId}`);
  expect(status).toBe(200);
  expect(og('title')).toBe('Simpósio de Farmacovigilância — Belo Horizonte · Educação Farma');
  expect(og('description')).toContain('Notificação de eventos adversos, sinais de segurança');
  expect(og('description')).toContain('Belo Horizonte — MG');
  expect(og('url')).toBe(`${PUBLIC_URL}/event/${eventId}`);

  // Link previews show no SVG: the image named is a PNG of the size the page declares, and it is served.
  const image = new URL(og('image')!);
  expect(image.origin).toBe(PUBLIC_URL);
  const response = await fetch(system.gatewayUrl + image.pathname);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
  expect([png.width, png.height]).toEqual([Number(og('image:width')), Number(og('image:height'))]);
});

test('an event without an image previews with the site’s share image', async () => {
  const { eventId } = await adminEvent(system, { title: 'Curso de Integridade de Dados', imageUrl: null });
  const { og } = await preview(`/event/${eventId}`);
  expect(og('title')).toBe('Curso de Integridade de Dados · Educação Farma');
  const response = await fetch(system.gatewayUrl + new URL(og('image')!).pathname);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
});
