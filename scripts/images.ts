/**
 * `node scripts/images.ts`: draws the site's raster images with Chromium, and is run again (its files committed)
 * after changing what they are drawn from:
 * - the icons, from the mark `frontends/shell/public/favicon.svg`, into the same folder (the shell's build ships it
 *   at the site root);
 * - the images shared links show (link previews show no SVG): `gateway/public/images/share.png` with the brand,
 *   and a PNG beside each event illustration in `gateway/public/images/events/`.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/browser.ts';

import { brand } from '../proto/src/brand.ts';

const PUBLIC_DIR = fileURLToPath(new URL('../frontends/shell/public/', import.meta.url));
const IMAGES_DIR = fileURLToPath(new URL('../gateway/public/images/', import.meta.url));
const FAVICON_SIZES = [16, 32, 48];

/**
 * The mark drawn at `size` pixels, its rounded corners transparent (browser tabs, the install prompt). Full bleed,
 * its square is not rounded and fills the image: iOS and Android's maskable icons cut their own shape, and the cross,
 * 56% of the width, stays inside the maskable icon's safe zone (the central circle of 80%). Square corners rather
 * than a fill behind rounded ones, whose anti-aliased edge would show as a faint seam.
 */
async function draw(page: Page, mark: string, size: number, { fullBleed = false } = {}): Promise<Buffer> {
  return rasterize(page, fullBleed ? mark.replace(/ rx="[^"]*"/, '') : mark, size, size);
}

/** An SVG drawn at `width` × `height` pixels. */
async function rasterize(page: Page, svg: string, width: number, height: number): Promise<Buffer> {
  await page.setViewportSize({ width, height });
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<body style="margin:0"><img src="${src}" width="${width}" height="${height}" style="display:block">`,
  );
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width, height } });
}

/** The brand's share image (1200 × 630, what link previews show): the mark, the name and the tagline on teal. */
function shareImage(mark: string): string {
  const inner = mark
    .trim()
    .replace(/^<svg[^>]*>/, '')
    .replace(/<\/svg>$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#0b5563"/>
  <g transform="translate(96 150) scale(5)">${inner.replace('fill="#0b5563"', 'fill="#ffffff" fill-opacity="0.12"')}</g>
  <text x="96" y="400" font-family="Inter, 'DejaVu Sans', sans-serif" font-size="84" font-weight="700" fill="#ffffff">${brand.name}</text>
  <text x="96" y="470" font-family="Inter, 'DejaVu Sans', sans-serif" font-size="36" fill="#d7eef0">${brand.tagline}</text>
</svg>`;
}

/** An ICO file holding PNG images (Windows Vista and every browser read them), one directory entry per size. */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const HEADER = 6;
  const ENTRY = 16;
  const header = Buffer.alloc(HEADER);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = HEADER + ENTRY * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(ENTRY);
    entry.writeUInt8(size % 256, 0); // 0 stands for 256
    entry.writeUInt8(size % 256, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

const mark = await readFile(join(PUBLIC_DIR, 'favicon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const favicons = [];
  for (const size of FAVICON_SIZES) favicons.push({ size, png: await draw(page, mark, size) });
  const files: [string, Buffer][] = [
    ['favicon.ico', ico(favicons)],
    ['apple-touch-icon.png', await draw(page, mark, 180, { fullBleed: true })],
    ['icons/icon-192.png', await draw(page, mark, 192)],
    ['icons/icon-512.png', await draw(page, mark, 512)],
    ['icons/icon-maskable-512.png', await draw(page, mark, 512, { fullBleed: true })],
  ];
  for (const [name, content] of files) {
    await writeFile(join(PUBLIC_DIR, name), content);
    console.log(`${name}: ${content.length} bytes`);
  }
  const shares: [string, Buffer][] = [['share.png', await rasterize(page, shareImage(mark), 1200, 630)]];
  for (const name of (await readdir(join(IMAGES_DIR, 'events'))).filter((file) => file.endsWith('.svg'))) {
    const svg = await readFile(join(IMAGES_DIR, 'events', name), 'utf8');
    shares.push([`events/${name.replace(/\.svg$/, '.png')}`, await rasterize(page, svg, 1200, 675)]);
  }
  for (const [name, content] of shares) {
    await writeFile(join(IMAGES_DIR, name), content);
    console.log(`images/${name}: ${content.length} bytes`);
  }
} finally {
  await browser.close();
}
