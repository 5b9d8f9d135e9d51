import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { adminEvent } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';
import { FIRST_LOAD_JS_BUDGET_BYTES, kb, pageScripts, totalBrotli } from '../../scripts/lib/page-weight.ts';

// Run through the debugging protocol, as the page's own CSP refuses inline scripts (a `<script>` tag with it).
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** With SCREENSHOTS=1, every page at both widths is saved here for anyone to look at (not committed). */
const SHOTS = process.env.SCREENSHOTS ? fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url)) : null;
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

let stack: BrowserStack;
let eventId: string;
let adminToken: string;
let code: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  ({ eventId, adminToken } = await adminEvent(stack.system, { maxAttendees: 40 }));
  const link = await stack.system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 2, overridePrice: null },
  });
  code = link.body.code;
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
}, 180_000);
afterAll(() => stack?.stop());

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes[0]?.target}`);
}

const visitor = () => ({});
const admin = () => ({ token: adminToken });
const pages: [string, () => string, () => { token?: string }][] = [
  ['home', () => '/', visitor],
  ['events', () => '/eventos', visitor],
  ['event', () => `/event/${eventId}`, visitor],
  ['courtesy', () => '/cortesia', visitor],
  ['courtesy-form', () => `/cortesia?code=${code}`, admin],
  ['login', () => '/login', visitor],
  ['register', () => '/register', visitor],
  ['forgot-password', () => '/forgot-password', visitor],
  ['reset-password', () => '/reset-password?token=abc', visitor],
  ['verify-email', () => '/verify-email?email=ana%40example.com', visitor],
  ['profile', () => '/profile', admin],
  ['courtesy-admin', () => '/cortesia-admin', admin],
  ['mass-send', () => '/cortesia-envio-em-massa', admin],
  ['admin-test', () => '/admin-test', admin],
  ['event-certificates', () => `/admin/eventos/${eventId}/certificados`, admin],
  ['certificate-not-found', () => '/certificados/AAAA-BBBB-CCCC-DDDD', visitor],
  ['not-found', () => '/nao-existe', visitor],
];

test.each(pages)(
  '%s: no serious or critical accessibility problem, at phone and desktop width',
  async (name, path, who) => {
    const context = await stack.newContext(who());
    const page = await context.newPage();
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      await page.setViewportSize(viewport);
      await page.goto(path(), { waitUntil: 'networkidle' });
      await page.getByRole('main').getByRole('heading').first().waitFor();
      expect({ page: name, width, violations: await seriousViolations(page) }).toEqual({
        page: name,
        width,
        violations: [],
      });
      if (SHOTS) await page.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: true });
    }
    await context.close();
  },
  60_000,
);

test(`the home page's first-load JavaScript stays within ${kb(FIRST_LOAD_JS_BUDGET_BYTES)} brotli, without the scanner's library`, async () => {
  const { firstLoad, afterLoad } = await pageScripts(await stack.newContext(), '/');
  const total = totalBrotli(firstLoad);
  console.log(`home page first-load JavaScript: ${kb(total)} brotli in ${firstLoad.length} files`);
  expect(firstLoad.length).toBeGreaterThan(0);
  const scripts = [...firstLoad, ...afterLoad];
  expect(scripts.filter((script) => script.source.includes('Html5Qrcode')).map((script) => script.path)).toEqual([]);
  expect(total).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
});
