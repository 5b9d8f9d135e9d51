import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { companyMessages } from '@ticketing/proto';
import { adminEvent, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

/** The checkout on a phone: buying as a company, a coupon the server refuses, and a dialog that fits the screen. */
let stack: BrowserStack;
beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);
afterAll(() => stack?.stop());

const PHONE = { width: 390, height: 844 };
// Run through the debugging protocol, as the page's own CSP refuses inline scripts.
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The inline message of the field labelled `label`. */
const fieldError = (page: Page, label: string) =>
  page
    .locator('.field')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.field__error');

/** What a finger could miss: visible controls (a checkbox by its label) less than 44px high or wide. */
const smallTargets = (dialog: Locator) =>
  dialog.evaluate((root) =>
    [...root.querySelectorAll('button, a, select, input:not([type="checkbox"]), .checkbox__label')]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 44 || box.width < 44))
      .map(({ element, box }) => `${element.textContent || element.id} (${box.width}×${box.height})`),
  );

/** Whether anything is wider than the screen: the page or the dialog scrolls sideways. */
const scrollsSideways = (page: Page, dialog: Locator) =>
  Promise.all([
    page.locator('html').evaluate((html) => html.scrollWidth > html.clientWidth),
    dialog.evaluate((root) => root.scrollWidth > root.clientWidth),
  ]).then(([pageScrolls, dialogScrolls]) => pageScrolls || dialogScrolls);

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} at ${violation.nodes[0]?.target}`);
}

test('on a phone: Comprar como empresa asks for the company, the CNPJ masked and checked, a refused coupon says why, the order carries the company, and the dialog fits', async () => {
  const { eventId } = await adminEvent(stack.system, { title: 'Curso de Farmácia Hospitalar', price: '1290.00' });
  const buyer = await verifiedBuyer(stack.system);
  const page = await (await stack.newContext({ token: buyer.token })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(PHONE);
  await page.goto(`/event/${eventId}`);
  await page.getByRole('main').getByRole('button', { name: 'Comprar ingresso', disabled: false }).click();
  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });

  // The company's fields appear only when asked for.
  const asCompany = dialog.getByRole('checkbox', { name: 'Comprar como empresa' });
  expect(await asCompany.isChecked()).toBe(false);
  expect(await dialog.getByLabel('CNPJ', { exact: true }).count()).toBe(0);
  await dialog.getByText('Comprar como empresa').click();
  expect(await asCompany.isChecked()).toBe(true);
  await dialog.getByText('Enviaremos a cobrança para o financeiro').waitFor();

  // Masked as typed, letters too (the alphanumeric CNPJ), and checked by its digits.
  const cnpj = dialog.getByLabel('CNPJ', { exact: true });
  await cnpj.pressSequentially('12abc34501de36');
  expect(await cnpj.inputValue()).toBe('12.ABC.345/01DE-36');
  // Said as soon as the field is left.
  await dialog.getByLabel('Razão social', { exact: true }).fill('Farmácia Modelo Ltda');
  await fieldError(page, 'CNPJ').getByText(companyMessages.cnpjInvalid, { exact: true }).waitFor();
  await dialog.getByLabel('E-mail do financeiro', { exact: true }).fill('financeiro');
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  await fieldError(page, 'E-mail do financeiro').getByText(companyMessages.emailInvalid).waitFor();
  expect((await stack.system.call('GET', '/api/orders?page=1', { token: buyer.token })).body.orders).toEqual([]);

  await cnpj.fill('');
  await cnpj.pressSequentially('12abc34501de35');
  await dialog.getByLabel('E-mail do financeiro', { exact: true }).fill('Financeiro@Modelo.com.br');
  await fieldError(page, 'CNPJ').waitFor({ state: 'detached' });
  await dialog.getByLabel('Pedido de compra (opcional)', { exact: true }).fill('PC-2026-118');

  // A coupon the server refuses: its own message, at the field.
  const refusal = await stack.system.call('GET', `/api/coupons/NAOEXISTE/quote?eventId=${eventId}`, {
    token: buyer.token,
  });
  expect(refusal.status).toBeGreaterThanOrEqual(400);
  await dialog.getByLabel('Cupom', { exact: true }).fill('naoexiste');
  expect(await dialog.getByLabel('Cupom', { exact: true }).inputValue()).toBe('NAOEXISTE');
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await fieldError(page, 'Cupom').getByText(refusal.body.message, { exact: true }).waitFor();

  // Everything fits the phone and takes a finger.
  expect(await scrollsSideways(page, dialog)).toBe(false);
  expect(await smallTargets(dialog)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);

  const request = page.waitForRequest((sent) => sent.url().endsWith('/api/orders') && sent.method() === 'POST');
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  const sent = (await request).postDataJSON();
  expect(sent).toMatchObject({
    eventId,
    paymentMethod: 'pix',
    company: {
      cnpj: '12.ABC.345/01DE-35',
      name: 'Farmácia Modelo Ltda',
      email: 'financeiro@modelo.com.br',
      purchaseOrder: 'PC-2026-118',
    },
  });
  // The refused coupon is not sent, nor installments for PIX.
  expect(sent).not.toHaveProperty('couponCode');
  expect(sent).not.toHaveProperty('installments');
  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByRole('button', { name: 'Concluir' }).waitFor();
  expect(await scrollsSideways(page, payment)).toBe(false);
  expect(errors).toEqual([]);
}, 90_000);
