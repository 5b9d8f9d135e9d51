import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import type { AdminEventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

/** A real PNG of `width`×`height` pixels of one colour. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([r, g, b, 255], i);
  return PNG.sync.write(image);
}

/** The header of a WebP file: its format is recognised from these bytes. */
const webp = () =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18, 1)]);

function upload(eventId: string, content: Buffer | undefined, { token = catalog.adminToken, field = 'image' } = {}) {
  const form = new FormData();
  if (content) form.append(field, new Blob([new Uint8Array(content)]), 'foto.png');
  else form.append('nota', 'sem arquivo');
  return fetch(`${catalog.service.url}/api/admin/events/${eventId}/image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

const draft = async () => {
  const response = await catalog.request('POST', '/api/admin/events', {
    token: catalog.adminToken,
    body: { title: `Imagem ${randomUUID()}`, date: inDays(20), location: 'Salvador – BA', price: '90.00' },
  });
  return (await response.json()) as AdminEventView;
};

test('a PNG is stored, the event points at it, and it is served with its type and a year of cache', async () => {
  const event = await draft();
  const content = png(4, 3, [200, 30, 60]);
  const response = await upload(event.id, content);
  expect(response.status).toBe(200);
  const updated = (await response.json()) as AdminEventView;
  expect(updated.imageUrl).toMatch(/^\/api\/events\/images\/[0-9a-f]{64}$/);
  expect(updated).toMatchObject({ id: event.id, status: 'rascunho' });

  const served = await fetch(`${catalog.service.url}${updated.imageUrl}`);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Buffer.from(await served.arrayBuffer()).equals(content)).toBe(true);
  expect(PNG.sync.read(content)).toMatchObject({ width: 4, height: 3 });

  // Replacing the image changes the address; the change is announced like any other edit.
  const replaced = (await (await upload(event.id, png(4, 3, [0, 90, 200]))).json()) as AdminEventView;
  expect(replaced.imageUrl).not.toBe(updated.imageUrl);
  expect((await fetch(`${catalog.service.url}${replaced.imageUrl}`)).status).toBe(200);
  expect(await catalog.changes(event.id)).toHaveLength(3);
  expect(catalog.logs.lines).toContainEqual(expect.objectContaining({ msg: 'event image stored', eventId: event.id }));

  // A duplicate shows the same image.
  const copy = (await (
    await catalog.request('POST', `/api/admin/events/${event.id}/duplicate`, { token: catalog.adminToken })
  ).json()) as AdminEventView;
  expect(copy.imageUrl).toBe(replaced.imageUrl);
});

test('WebP and JPEG are recognised by their content', async () => {
  const event = await draft();
  const answer = (await (await upload(event.id, webp())).json()) as AdminEventView;
  const served = await fetch(`${catalog.service.url}${answer.imageUrl}`);
  expect(served.headers.get('content-type')).toBe('image/webp');
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 0)]);
  const jpegAnswer = (await (await upload(event.id, jpeg)).json()) as AdminEventView;
  expect((await fetch(`${catalog.service.url}${jpegAnswer.imageUrl}`)).headers.get('content-type')).toBe('image/jpeg');
});

test('files that are not JPEG, PNG or WebP, too large or missing are refused in pt-BR and change nothing', async () => {
  const event = await draft();
  const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 0)]);
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const tooLarge = Buffer.concat([png(1, 1, [1, 2, 3]), Buffer.alloc(2 * 1024 * 1024, 0)]);
  const cases: [Buffer | undefined, Record<string, string>, number, string][] = [
    [gif, {}, 415, 'Formato de imagem não aceito: envie JPEG, PNG ou WebP'],
    [svg, {}, 415, 'Formato de imagem não aceito: envie JPEG, PNG ou WebP'],
    [Buffer.from('apenas texto'), {}, 415, 'Formato de imagem não aceito: envie JPEG, PNG ou WebP'],
    [tooLarge, {}, 413, 'Imagem grande demais: o limite é 2 MB'],
    [undefined, {}, 422, 'Envie uma imagem no campo "image" (JPEG, PNG ou WebP)'],
    [png(2, 2, [9, 9, 9]), { field: 'foto' }, 422, 'Envie uma imagem no campo "image" (JPEG, PNG ou WebP)'],
  ];
  for (const [content, options, status, message] of cases) {
    const response = await upload(event.id, content, options);
    expect({ status: response.status, body: await response.json() }).toEqual({ status, body: { message } });
  }
  const notMultipart = await catalog.request('POST', `/api/admin/events/${event.id}/image`, {
    token: catalog.adminToken,
    body: { imageUrl: 'x' },
  });
  expect(notMultipart.status).toBe(422);

  const missing = await upload(randomUUID(), png(2, 2, [1, 1, 1]));
  expect([missing.status, await missing.json()]).toEqual([404, { message: 'Evento não encontrado' }]);
  expect((await catalog.service.db('events').where({ id: event.id }).first()).image_url).toBeNull();
  expect(await catalog.changes(event.id)).toHaveLength(1);
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);

  for (const address of [`/api/events/images/${'a'.repeat(64)}`, '/api/events/images/nao-existe']) {
    const response = await fetch(`${catalog.service.url}${address}`);
    expect([response.status, await response.json()]).toEqual([404, { message: 'Imagem não encontrada' }]);
  }
});
