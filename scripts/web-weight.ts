/**
 * `npm run web:weight`: the storefront's budgets, checked on the whole product run in-process as the browser tests
 * run it. It fails (exit 1) when any of the server-rendered storefront pages — `/`, `/eventos` and the first listed
 * event's page — breaks one of them:
 *
 * - First-load JavaScript, at most FIRST_LOAD_JS_BUDGET_BYTES (100 KB) brotli per page: the scripts whose requests
 *   started before the page's `load` event (by the page's resource timing) in a fresh, logged-out browser context,
 *   each compressed with brotli at quality 11 as the gateway serves the build's precompressed files. The scripts
 *   fetched after `load` until the network is idle (fetched ahead of the visitor's first click, not run) are listed
 *   too, apart, and do not count.
 * - Lighthouse's Total Blocking Time, at most TBT_BUDGET_MS (200 ms): the median of 3 runs with its default mobile
 *   settings (simulated throttling), printed with the performance score, LCP, CLS and the host's CPU benchmark index.
 */
import { startBrowserStack } from './lib/browser.ts';
import { fixed, LIGHTHOUSE_RUNS, lighthousePage, storefrontPaths, type PageRun } from './lib/lighthouse.ts';
import {
  FIRST_LOAD_JS_BUDGET_BYTES,
  TBT_BUDGET_MS,
  kb,
  pageScripts,
  totalBrotli,
  type ScriptWeight,
} from './lib/page-weight.ts';
import { adminEvent } from './lib/system.ts';

const fileRows = (scripts: ScriptWeight[]) =>
  scripts.map((script) => ({ script: script.path, raw: kb(script.bytes), brotli: kb(script.brotliBytes) }));

const failures: string[] = [];
const summary: Record<string, Record<string, string>> = {};

const stack = await startBrowserStack();
try {
  const base = stack.system.gatewayUrl;
  let paths = await storefrontPaths(base);
  // A fresh product lists no event: one is made so that the event page is measured too.
  if (!paths.some((path) => path.startsWith('/event/'))) {
    await adminEvent(stack.system, {});
    paths = await storefrontPaths(base);
  }

  for (const path of paths) {
    const context = await stack.newContext();
    const { firstLoad, afterLoad } = await pageScripts(context, path);
    await context.close();
    const firstLoadBytes = totalBrotli(firstLoad);
    console.log(`\n${path} — first load: scripts requested before the load event`);
    console.table(fileRows(firstLoad));
    console.log(
      `${path} first load: ${kb(firstLoadBytes)} brotli in ${firstLoad.length} files ` +
        `(budget ${kb(FIRST_LOAD_JS_BUDGET_BYTES)})`,
    );
    console.log(`${path} — after load, until the network is idle (not in the budget)`);
    if (afterLoad.length > 0) console.table(fileRows(afterLoad));
    console.log(`${path} after load: ${kb(totalBrotli(afterLoad))} brotli in ${afterLoad.length} files`);
    summary[path] = { 'first load JS': kb(firstLoadBytes), 'after load JS': kb(totalBrotli(afterLoad)) };
    // The shell's entry is always among them: none weighed means the page was not measured at all.
    if (firstLoad.length === 0) failures.push(`${path}: no script was requested before the load event`);
    else if (firstLoadBytes > FIRST_LOAD_JS_BUDGET_BYTES) {
      failures.push(
        `${path}: first-load JavaScript is ${kb(firstLoadBytes)} brotli, over its ` +
          `${kb(FIRST_LOAD_JS_BUDGET_BYTES)} budget by ${kb(firstLoadBytes - FIRST_LOAD_JS_BUDGET_BYTES)}`,
      );
    }
  }

  console.log(`\nLighthouse, mobile (simulated slow 4G), ${LIGHTHOUSE_RUNS} runs per page against ${base}`);
  const runs: PageRun[] = [];
  for (const path of paths) runs.push(await lighthousePage(base, path, LIGHTHOUSE_RUNS));
  for (const { path, runs: done, median } of runs) {
    summary[path] = {
      ...summary[path],
      perf: fixed(median?.performance, 2),
      'LCP s': fixed(median?.lcpS, 2),
      'TBT ms': fixed(median?.tbtMs, 0),
      CLS: fixed(median?.cls, 3),
      'host CPU': fixed(median?.hostCpu, 0),
    };
    const tbtMs = median?.tbtMs ?? null;
    if (tbtMs === null) failures.push(`${path}: no Lighthouse run measured its Total Blocking Time`);
    else if (tbtMs > TBT_BUDGET_MS) {
      failures.push(
        `${path}: Total Blocking Time is ${tbtMs} ms (median of ${done} runs), over its ${TBT_BUDGET_MS} ms budget`,
      );
    }
  }
} finally {
  await stack.stop();
}

console.log(
  `\nStorefront budgets: first-load JavaScript ${kb(FIRST_LOAD_JS_BUDGET_BYTES)} brotli, ` +
    `TBT ${TBT_BUDGET_MS} ms (Lighthouse medians)`,
);
console.table(summary);
if (failures.length > 0) {
  console.error(`Over budget:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('Every storefront page is within its budgets.');
}
