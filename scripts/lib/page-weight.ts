import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';

/** What a visitor's browser downloads to show the home page: the shell and the storefront's home (215 KB now). */
export const HOME_JS_BUDGET_BYTES = 220 * 1024;

export interface ScriptWeight {
  path: string;
  bytes: number;
  gzipBytes: number;
  source: string;
}

/** Opens `/` until the network is quiet and weighs every script it loaded, compressed as the wire would carry it. */
export async function homeScripts(context: BrowserContext): Promise<ScriptWeight[]> {
  const page = await context.newPage();
  const scripts: Promise<ScriptWeight>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      response.body().then((body) => ({
        path: new URL(response.url()).pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        source: body.toString('utf8'),
      })),
    );
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.getByRole('main').getByRole('heading').first().waitFor();
  await page.close();
  return Promise.all(scripts);
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
