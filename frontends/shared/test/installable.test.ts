import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { brand } from '@ticketing/proto';

/** The shell's build, which the gateway serves at the site root. */
const DIST = join(import.meta.dirname, '../../dist');
const TOKENS = join(import.meta.dirname, '../src/styles/tokens.css');

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose: string;
}

const manifest = JSON.parse(await readFile(join(DIST, 'manifest.webmanifest'), 'utf8'));
const icons: ManifestIcon[] = manifest.icons;
const tokens = await readFile(TOKENS, 'utf8');
const token = (name: string) => tokens.match(new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`))?.[1];

const readPng = async (path: string) => PNG.sync.read(await readFile(join(DIST, path)));
const pixel = (png: PNG, x: number, y: number) => [
  ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4),
];
const rgba = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).concat(255);

test('the web app manifest names the site as the brand does, in pt-BR, opening standalone at the root', () => {
  expect(manifest).toMatchObject({
    name: brand.name,
    description: brand.tagline,
    lang: 'pt-BR',
    start_url: '/',
    scope: '/',
    display: 'standalone',
  });
  // Home screens cut labels longer than about 12 characters.
  expect(manifest.short_name.length).toBeGreaterThan(0);
  expect(manifest.short_name.length).toBeLessThanOrEqual(12);
});

test('the manifest’s colours are the design’s brand teal and page background', () => {
  expect(manifest.theme_color).toBe(token('color-brand-700'));
  expect(manifest.background_color).toBe(token('color-background'));
});

test('the manifest lists a 192 and a 512 px icon, and a maskable 512 px one', () => {
  expect(icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
});

test.each(['/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png'])(
  'the icon %s is in the build, a PNG of the size the manifest declares',
  async (src) => {
    const icon = icons.find((entry) => entry.src === src)!;
    expect(icon.type).toBe('image/png');
    const png = await readPng(src);
    expect(`${png.width}x${png.height}`).toBe(icon.sizes);
  },
);

test('the maskable icon is teal to its edges, and its mark stays inside the safe zone (the central 80% circle)', async () => {
  const png = await readPng('/icons/icon-maskable-512.png');
  const teal = rgba(manifest.theme_color);
  const last = png.width - 1;
  for (const [x, y] of [
    [0, 0],
    [last, 0],
    [0, last],
    [last, last],
    [0, 256],
    [256, 0],
  ]) {
    expect(pixel(png, x, y)).toEqual(teal);
  }
  // How far from the centre the mark (every pixel that is not the background) reaches.
  const center = png.width / 2;
  let reach = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (pixel(png, x, y).join() !== teal.join())
        reach = Math.max(reach, Math.hypot(x + 0.5 - center, y + 0.5 - center));
    }
  }
  expect(reach).toBeGreaterThan(0);
  expect(reach).toBeLessThanOrEqual(0.4 * png.width);
});

test('the Apple touch icon is a 180 px PNG without transparency (iOS would fill it with black)', async () => {
  const png = await readPng('/apple-touch-icon.png');
  expect([png.width, png.height]).toEqual([180, 180]);
  const alphas = png.data.filter((_, at) => at % 4 === 3);
  expect(alphas.every((alpha) => alpha === 255)).toBe(true);
});

test('favicon.svg is the mark as an SVG image', async () => {
  const svg = await readFile(join(DIST, 'favicon.svg'), 'utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">/);
  expect(svg).toContain(`fill="${manifest.theme_color}"`);
});

test('favicon.ico is an ICO file whose images are 16, 32 and 48 px PNGs', async () => {
  const ico = await readFile(join(DIST, 'favicon.ico'));
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // reserved, 1: icon
  const count = ico.readUInt16LE(4);
  const sizes = [];
  for (let index = 0; index < count; index++) {
    const entry = 6 + 16 * index;
    const size = ico.readUInt8(entry) || 256;
    expect(ico.readUInt8(entry + 1) || 256).toBe(size);
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    expect(offset + length).toBeLessThanOrEqual(ico.length);
    const png = PNG.sync.read(ico.subarray(offset, offset + length));
    expect([png.width, png.height]).toEqual([size, size]);
    sizes.push(size);
  }
  expect(sizes).toEqual([16, 32, 48]);
});
