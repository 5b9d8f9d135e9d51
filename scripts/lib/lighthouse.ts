/**
 * Lighthouse on the storefront's pages with its default mobile settings (a mid-range phone on slow 4G, simulated),
 * several runs each in a fresh Debian Chromium: every run and the medians, printed as a table.
 */
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { kb } from './page-weight.ts';

/** Runs per page: one run of a simulated phone varies too much to judge a page by. */
export const LIGHTHOUSE_RUNS = 3;
/** Runs Lighthouse could not record (it asks to be run again: NO_NAVSTART, NO_FCP) are, up to this many per page. */
const RERUNS = 2;

// chrome-launcher starts a full browser: headless here, with the browser tests' settings.
const CHROMIUM_FLAGS = ['--headless', ...CHROMIUM_ARGS];

interface Figures {
  performance: number | null;
  lcpS: number | null;
  tbtMs: number | null;
  cls: number | null;
  fcpS: number | null;
  speedIndexS: number | null;
  accessibility: number | null;
  /** Lighthouse's measure of this machine's CPU (higher is faster): a low one means a busy host, not a slow page. */
  hostCpu: number;
}

interface Weight {
  scriptBytes: number | null;
  requests: number | null;
}

export interface PageRun {
  path: string;
  url: string;
  runs: number;
  /** Each figure's median over the runs; the script bytes and requests of the median run as Lighthouse picks it. */
  median: (Figures & Weight) | null;
}

interface Metric {
  audit: string;
  scale: number;
  digits: number;
}

const METRICS = {
  lcpS: { audit: 'largest-contentful-paint', scale: 1 / 1000, digits: 3 },
  tbtMs: { audit: 'total-blocking-time', scale: 1, digits: 0 },
  cls: { audit: 'cumulative-layout-shift', scale: 1, digits: 4 },
  fcpS: { audit: 'first-contentful-paint', scale: 1 / 1000, digits: 3 },
  speedIndexS: { audit: 'speed-index', scale: 1 / 1000, digits: 3 },
} satisfies Record<string, Metric>;

/**
 * The storefront's server-rendered pages at `base`: the home page, the events list and the first listed event's
 * page (left out when no event is listed).
 */
export async function storefrontPaths(base: string): Promise<string[]> {
  const response = await fetch(`${base}/api/events`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET /api/events answered ${response.status}`);
  const [first] = (await response.json()) as { id: string }[];
  return ['/', '/eventos', ...(first ? [`/event/${first.id}`] : [])];
}

/** One Lighthouse run in a fresh Chromium; audits that failed are named, and their figures left empty. */
async function audit(url: string): Promise<{ lhr: Result; failedAudits: string[] }> {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance', 'accessibility'],
      logLevel: 'error',
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const failedAudits = Object.values(lhr.audits)
      .filter((auditResult) => auditResult.scoreDisplayMode === 'error')
      .map((auditResult) => `${auditResult.id}: ${auditResult.errorMessage ?? 'error'}`);
    return { lhr, failedAudits };
  } finally {
    chrome.kill();
  }
}

function figures(lhr: Result): Figures {
  const metric = ({ audit: id, scale, digits }: Metric) => {
    const value = lhr.audits[id]?.numericValue;
    return value === undefined ? null : Number((value * scale).toFixed(digits));
  };
  return {
    performance: lhr.categories.performance?.score ?? null,
    lcpS: metric(METRICS.lcpS),
    tbtMs: metric(METRICS.tbtMs),
    cls: metric(METRICS.cls),
    fcpS: metric(METRICS.fcpS),
    speedIndexS: metric(METRICS.speedIndexS),
    accessibility: lhr.categories.accessibility?.score ?? null,
    hostCpu: Math.round(lhr.environment.benchmarkIndex),
  };
}

/** Bytes of script on the wire and requests, from Lighthouse's resource summary. */
function weight(lhr: Result): Weight {
  const details = lhr.audits['resource-summary']?.details;
  const items = (details?.type === 'table' ? details.items : []) as {
    resourceType: string;
    requestCount: number;
    transferSize: number;
  }[];
  return {
    scriptBytes: items.find((item) => item.resourceType === 'script')?.transferSize ?? null,
    requests: items.find((item) => item.resourceType === 'total')?.requestCount ?? null,
  };
}

function median(values: (number | null)[]): number | null {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Number(((sorted[middle - 1]! + sorted[middle]!) / 2).toFixed(4));
}

export const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);

function row(measured: Figures, { scriptBytes, requests }: Weight) {
  return {
    perf: fixed(measured.performance, 2),
    'LCP s': fixed(measured.lcpS, 2),
    'TBT ms': fixed(measured.tbtMs, 0),
    CLS: fixed(measured.cls, 3),
    'FCP s': fixed(measured.fcpS, 2),
    'SI s': fixed(measured.speedIndexS, 2),
    a11y: fixed(measured.accessibility, 2),
    'JS (wire)': scriptBytes === null ? '—' : kb(scriptBytes),
    requests: requests ?? '—',
    'host CPU': fixed(measured.hostCpu, 0),
  };
}

/**
 * Runs Lighthouse `runs` times on `base` + `path` and prints every run and the medians; a failed run is reported and
 * run again (up to RERUNS).
 */
export async function lighthousePage(base: string, path: string, runs: number): Promise<PageRun> {
  const url = `${base}${path}`;
  const done: Result[] = [];
  const table: Record<string, ReturnType<typeof row>> = {};
  /** The number each recorded run has in the table. */
  const doneRuns: number[] = [];
  let failed = 0;
  while (done.length < runs && failed <= RERUNS) {
    const run = done.length + failed + 1;
    try {
      const { lhr, failedAudits } = await audit(url);
      for (const failure of failedAudits) console.error(`${path} run ${run}: audit failed, ${failure}`);
      for (const warning of lhr.runWarnings) console.error(`${path} run ${run}: ${warning}`);
      done.push(lhr);
      doneRuns.push(run);
      table[`run ${run}`] = row(figures(lhr), weight(lhr));
    } catch (error) {
      failed++;
      console.error(`${path} run ${run} failed: ${(error as Error).message}`);
    }
  }
  console.log(`\n${url} — ${done.length} of ${runs} runs`);
  if (done.length === 0) return { path, url, runs: 0, median: null };

  const all = done.map(figures);
  const medianFigures = Object.fromEntries(
    (Object.keys(all[0]!) as (keyof Figures)[]).map((key) => [key, median(all.map((run) => run[key]))]),
  ) as unknown as Figures;
  const valid = filterToValidRuns(done);
  const medianRun = valid.length > 0 ? computeMedianRun(valid) : undefined;
  const medianWeight = medianRun ? weight(medianRun) : { scriptBytes: null, requests: null };
  table[medianRun ? `median (JS, requests of run ${doneRuns[done.indexOf(medianRun)]})` : 'median'] = row(
    medianFigures,
    medianWeight,
  );

  console.table(table);
  return { path, url, runs: done.length, median: { ...medianFigures, ...medianWeight } };
}
