import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGatewayWithBuild } from '../../gateway/test/support.ts';
import { CHROMIUM, CHROMIUM_ARGS, failOnCspViolations, takeCspViolations } from '../../scripts/lib/browser.ts';

// Evaluated through the debugging protocol: the page's policy refuses inline scripts.
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page's window, as the code evaluated in it sees it (the project's types have no DOM). */
interface BrowserWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

let browser: Browser;
let gatewayUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  let gateway;
  ({ gateway, close } = await startGatewayWithBuild({ 'index.html': '<!doctype html><title>site</title>' }));
  gatewayUrl = gateway.url;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await close?.();
});

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    type Violation = { id: string; impact: string; nodes: { target: string[] }[] };
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`);
}

test('a partner reads the API reference at /api/docs, styled under the site’s policy, and downloads the document', async () => {
  const context = await browser.newContext({ baseURL: gatewayUrl, locale: 'pt-BR' });
  await failOnCspViolations(context);
  const page = await context.newPage();
  await page.goto('/api/docs');

  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^API /);
  const orders = page.getByRole('region', { name: 'POST /api/orders', exact: true });
  await expect(orders.getByText('Fazer um pedido (reserva a vaga e gera a cobrança)').isVisible()).resolves.toBe(true);
  await orders.getByText('Corpo do pedido').click();
  await expect(orders.locator('pre').first().textContent()).resolves.toContain('"paymentMethod"');
  // The stylesheet from the site's own origin applies: the method is a coloured badge.
  const badge = await orders
    .locator('.method')
    .evaluate((element) => (globalThis as unknown as BrowserWindow).getComputedStyle(element).backgroundColor);
  expect(badge).toBe('rgb(15, 118, 110)');
  expect(await seriousViolations(page)).toEqual([]);

  const download = await page.getByRole('link', { name: 'Baixar a descrição OpenAPI (JSON)' }).getAttribute('href');
  const document = await (await page.request.get(download!)).json();
  expect(document).toMatchObject({ openapi: '3.1.0', paths: { '/api/orders': { post: { tags: ['orders'] } } } });
  expect(takeCspViolations()).toEqual([]);
  await context.close();
  // axe reads every one of the page's thousands of nodes: on a busy machine that alone can take jest's default.
}, 90_000);
