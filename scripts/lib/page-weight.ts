import { brotliCompressSync, constants } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';

/**
 * The JavaScript a storefront page needs before its `load` event (see `pageScripts`), brotli-compressed: what a
 * phone on a slow network waits for before the page works.
 */
export const FIRST_LOAD_JS_BUDGET_BYTES = 100 * 1024;
/** Lighthouse's Total Blocking Time on a storefront page, the median of its mobile runs. */
export const TBT_BUDGET_MS = 200;

export interface ScriptWeight {
  path: string;
  bytes: number;
  /** At brotli's quality 11, as the build precompresses the files the gateway serves. */
  brotliBytes: number;
  source: string;
}

export interface PageScripts {
  /** Scripts whose requests started before the page's `load` event. */
  firstLoad: ScriptWeight[];
  /** Scripts requested after it, until the network was idle. */
  afterLoad: ScriptWeight[];
}

const brotliBytes = (body: Buffer) =>
  brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }).length;

export const totalBrotli = (scripts: ScriptWeight[]) => scripts.reduce((sum, script) => sum + script.brotliBytes, 0);

/**
 * Opens `path` in the context (a fresh one is a first visit) until the network is quiet, and weighs every script it
 * loaded, split by whether its request started before the page's `load` event (by the page's resource timing).
 */
export async function pageScripts(context: BrowserContext, path: string): Promise<PageScripts> {
  const page = await context.newPage();
  const bodies: Promise<{ url: string; body: Buffer }>[] = [];
  page.on('response', (response) => {
    // A script fetched ahead of its use (`<link rel="prefetch">`) is a request of another type.
    if (!new URL(response.url()).pathname.endsWith('.js')) return;
    bodies.push(response.body().then((body) => ({ url: response.url(), body })));
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForLoadState('load');
  await page.getByRole('main').getByRole('heading').first().waitFor();
  const { loadEventStart, starts } = await page.evaluate(() => {
    type Entry = { name: string; startTime: number; loadEventStart: number };
    const timing = (globalThis as unknown as { performance: { getEntriesByType(type: string): Entry[] } }).performance;
    return {
      loadEventStart: timing.getEntriesByType('navigation')[0]!.loadEventStart,
      starts: timing.getEntriesByType('resource').map(({ name, startTime }) => [name, startTime] as const),
    };
  });
  const loaded = await Promise.all(bodies);
  await page.close();

  // A URL fetched twice counts once, as of its first request.
  const startOf = new Map<string, number>();
  for (const [name, startTime] of starts) if (!startOf.has(name)) startOf.set(name, startTime);
  const weighed = new Map<string, { script: ScriptWeight; firstLoad: boolean }>();
  for (const { url, body } of loaded) {
    const startTime = startOf.get(url);
    if (startTime === undefined) throw new Error(`${url}: no resource timing entry, so no start to place it by`);
    const script = {
      path: new URL(url).pathname,
      bytes: body.length,
      brotliBytes: brotliBytes(body),
      source: body.toString('utf8'),
    };
    weighed.set(url, { script, firstLoad: startTime < loadEventStart });
  }
  const scripts = [...weighed.values()].sort((a, b) => b.script.brotliBytes - a.script.brotliBytes);
  return {
    firstLoad: scripts.filter(({ firstLoad }) => firstLoad).map(({ script }) => script),
    afterLoad: scripts.filter(({ firstLoad }) => !firstLoad).map(({ script }) => script),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
