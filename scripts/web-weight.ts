/**
 * `npm run web:weight`: the JavaScript a visitor downloads for the home page (shell + storefront), file by file,
 * compressed with gzip as the wire carries it, against the budget. Runs the whole product, as the browser tests do.
 */
import { startBrowserStack } from './lib/browser.ts';
import { HOME_JS_BUDGET_BYTES, homeScripts, kb } from './lib/page-weight.ts';

const stack = await startBrowserStack();
try {
  const scripts = await homeScripts(await stack.newContext());
  const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  console.table(
    scripts
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .map((script) => ({ script: script.path, raw: kb(script.bytes), gzip: kb(script.gzipBytes) })),
  );
  console.log(
    `home page JavaScript: ${kb(total)} gzip in ${scripts.length} files (budget ${kb(HOME_JS_BUDGET_BYTES)})`,
  );
  process.exitCode = total <= HOME_JS_BUDGET_BYTES ? 0 : 1;
} finally {
  await stack.stop();
}
