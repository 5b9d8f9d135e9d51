import { randomUUID } from 'node:crypto';
import { createDb, migrate } from '@ticketing/platform';
import { dropSchemas, TEST_DATABASE_URL, uniqueName } from '@ticketing/testkit';
import { catalogMigrations } from '../src/data/migrations.ts';

const schema = uniqueName('catalog_images');
const db = createDb(TEST_DATABASE_URL, schema, 2);
afterAll(async () => {
  await db.destroy();
  await dropSchemas([schema]);
});

test("an image stored before only the product's own were accepted is dropped; the product's own stay", async () => {
  const before = catalogMigrations.slice(
    0,
    catalogMigrations.findIndex((m) => m.name === '0007_own_event_images'),
  );
  await migrate(db, schema, before);
  const uploaded = `/api/events/images/${'ab'.repeat(32)}`;
  const images = {
    foreign: 'https://outro-site.com.br/imagem.png',
    protocolRelative: '//outro-site.com.br/imagem.png',
    uploaded,
    shipped: '/images/events/workshop-bpf-sao-paulo.svg',
    none: null,
  };
  const ids = Object.fromEntries(Object.keys(images).map((name) => [name, randomUUID()]));
  for (const [name, imageUrl] of Object.entries(images)) {
    await db('events').insert({
      id: ids[name],
      title: name,
      date: new Date('2030-05-10T12:00:00Z'),
      location: 'Recife – PE',
      price: '10.00',
      image_url: imageUrl,
    });
  }

  await migrate(db, schema, catalogMigrations);

  const stored = await db('events').select('id', 'image_url');
  const byId = Object.fromEntries(
    stored.map((row: { id: string; image_url: string | null }) => [row.id, row.image_url]),
  );
  expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, byId[id]]))).toEqual({
    foreign: null,
    protocolRelative: null,
    uploaded,
    shipped: '/images/events/workshop-bpf-sao-paulo.svg',
    none: null,
  });
});
