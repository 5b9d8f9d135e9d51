/**
 * `npm run web:lighthouse`: Lighthouse on the storefront of a running product (`npm start`) — the home page, the
 * events list and the first event's page — each several times: performance and accessibility with Lighthouse's
 * default mobile settings (a mid-range phone on slow 4G, simulated). Prints every run with the host's CPU benchmark
 * index and the medians; the script bytes and the request count come from the median run as Lighthouse picks it.
 *
 * `--url <base>` (or SITE_URL, default http://localhost:8080), `--runs N` (default 3), `--json <path>` writes the
 * medians. Chromium is Debian's, started fresh for every run.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { LIGHTHOUSE_RUNS, lighthousePage, storefrontPaths } from '../lib/lighthouse.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    runs: { type: 'string', default: String(LIGHTHOUSE_RUNS) },
    json: { type: 'string' },
  },
});
const base = (args.url ?? process.env.SITE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${args.runs}`);

let paths: string[];
try {
  paths = await storefrontPaths(base);
} catch (error) {
  console.error(`No product answers at ${base} (${(error as Error).message}).`);
  console.error('Start it with `npm start` in another terminal (or pass --url <base>), then run this again.');
  process.exit(1);
}
// The event page is one of the three it is run for: without one the run says so and fails, after measuring the rest.
const eventPageMissing = !paths.some((path) => path.startsWith('/event/'));
if (eventPageMissing) console.error(`${base}/api/events lists no event: no event page is measured.`);

console.log(`Lighthouse, mobile (simulated slow 4G), ${runs} runs per page against ${base}`);
const pages = [];
for (const path of paths) pages.push(await lighthousePage(base, path, runs));

if (args.json) {
  await writeFile(
    args.json,
    `${JSON.stringify({ base, runsPerPage: runs, measuredAt: new Date(), pages }, null, 2)}\n`,
  );
  console.log(`\nmedians written to ${args.json}`);
}
process.exitCode = !eventPageMissing && pages.every((page) => page.runs > 0) ? 0 : 1;
