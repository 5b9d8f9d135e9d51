import type { BrowserContext, Page } from 'playwright-core';
import { readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

/** A pending order's payment in the profile and in its e-mail, and the buyer's withdrawal from a paid one. */
let stack: BrowserStack;
beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);
afterAll(() => stack?.stop());

type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;
type WithClipboard = { navigator: { clipboard: { readText(): Promise<string> } } };

const PAY_SUBJECT = 'Finalize o pagamento do seu ingresso: Workshop de Farmácia Clínica';

/** The buyer's profile in a new browser, logged in, with the page's script errors recorded. */
async function profileOf(buyer: Buyer, prepare?: (context: BrowserContext) => Promise<void>) {
  const context = await stack.newContext({ token: buyer.token });
  await prepare?.(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/profile');
  return { page, errors, card: page.getByRole('article', { name: 'Workshop de Farmácia Clínica' }) };
}

/** Waits for the toast with this title and description. */
const seeToast = (page: Page, title: string, description: string) =>
  page
    .locator('.toast')
    .filter({ has: page.locator('.toast__title', { hasText: title }) })
    .filter({ hasText: description })
    .waitFor();

async function buy(buyer: Buyer, paymentMethod: 'pix' | 'boleto') {
  const { eventId } = await adminEvent(stack.system, { maxAttendees: 10 });
  const bought = await stack.system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod },
  });
  expect(bought.status).toBe(201);
  return bought.body as { order: { id: string; orderNumber: string; asaasPaymentId: string }; payment: any };
}

test('a pending PIX order shows its QR code and copy-paste code in the profile, and the e-mail carries the same code', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { order, payment } = await buy(buyer, 'pix');
  expect(payment.pixPayload).toMatch(/^000201/);

  const { page, errors, card } = await profileOf(buyer, (context) =>
    context.grantPermissions(['clipboard-read', 'clipboard-write']),
  );
  await card.getByText('Aguardando Pagamento', { exact: true }).waitFor();
  const qr = card.getByRole('img', { name: `QR Code PIX do pedido nº ${order.orderNumber}` });
  expect(readQrCode((await qr.getAttribute('src'))!)).toBe(payment.pixPayload);
  expect(await card.getByLabel('PIX copia e cola', { exact: true }).inputValue()).toBe(payment.pixPayload);
  await card.getByRole('button', { name: 'Copiar código' }).click();
  await seeToast(page, 'Copiado!', 'Código PIX copiado para a área de transferência.');
  expect(await page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.readText())).toBe(
    payment.pixPayload,
  );

  // The e-mail: the code written out, and its QR code shown inline.
  const mail = await stack.system.mailTo(buyer.email, PAY_SUBJECT);
  expect(mail.text).toContain(payment.pixPayload);
  expect(mail.html).toContain('src="cid:pix-qr"');
  expect(readQrCode(mail.attachments[0]!.content)).toBe(payment.pixPayload);
  expect(errors).toEqual([]);
}, 60_000);

test('a pending boleto shows its digitable line to copy and the link to its PDF, as the e-mail does', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { payment } = await buy(buyer, 'boleto');
  expect(payment.boletoLine).toMatch(/^\d{47}$/);

  const { errors, card } = await profileOf(buyer);
  await card.getByText('Aguardando Pagamento', { exact: true }).waitFor();
  expect(await card.getByLabel('Linha digitável', { exact: true }).inputValue()).toBe(payment.boletoLine);
  await card.getByRole('button', { name: 'Copiar linha' }).waitFor();
  expect(await card.getByRole('link', { name: 'Baixar boleto (PDF)' }).getAttribute('href')).toBe(payment.boletoUrl);
  expect(await card.getByRole('img').count()).toBe(0);

  const mail = await stack.system.mailTo(buyer.email, PAY_SUBJECT);
  expect(mail.text).toContain(payment.boletoLine);
  expect(mail.text).toContain(payment.boletoUrl);
  expect(errors).toEqual([]);
}, 60_000);

test('a buyer withdraws from a paid order within 7 days from the profile: asked first, refunded, e-mailed', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { order } = await buy(buyer, 'pix');
  stack.system.sandbox.confirm(order.asaasPaymentId);
  await waitFor(async () => {
    const { body } = await stack.system.call('GET', '/api/orders?page=1', { token: buyer.token });
    return body.orders[0]?.status === 'paid' && body.orders[0].qrCodeData;
  });

  const { page, errors, card } = await profileOf(buyer);
  await card.getByText('Confirmado', { exact: true }).waitFor();
  expect(await card.getByLabel('PIX copia e cola', { exact: true }).count()).toBe(0);
  const withdraw = card.getByRole('button', { name: 'Solicitar reembolso (arrependimento)' });

  // The dialog explains the right first; keeping the ticket changes nothing.
  await withdraw.click();
  const dialog = page.getByRole('dialog', { name: 'Desistir da compra?' });
  await dialog.getByText('(art. 49), você pode desistir de uma compra feita pela internet em até 7 dias').waitFor();
  await dialog.getByText(/R\$\s155,00/).waitFor();
  await dialog.getByRole('button', { name: 'Manter ingresso' }).click();
  await dialog.waitFor({ state: 'detached' });
  await card.getByText('Confirmado', { exact: true }).waitFor();

  await withdraw.click();
  await dialog.getByRole('button', { name: 'Sim, solicitar reembolso' }).click();
  await seeToast(
    page,
    'Reembolso solicitado',
    'Desistência registrada. Assim que o ingresso for cancelado, o valor volta para a mesma forma de pagamento.',
  );
  // The ticket is cancelled first (the door refuses it from then on), then the money goes back: three hops on the
  // bus and the provider's refund, which a machine busy with other suites can stretch past the usual wait.
  await card.getByText('Reembolsado', { exact: true }).waitFor({ timeout: 30_000 });
  await card.getByText(/^Desistência atendida: o valor de R\$\s155,00 foi devolvido/).waitFor();
  await withdraw.waitFor({ state: 'detached' });
  expect(await card.getByRole('img').count()).toBe(0);
  expect(stack.system.sandbox.payments.get(order.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });

  const mail = await stack.system.mailTo(buyer.email, 'Sua desistência foi atendida: Workshop de Farmácia Clínica');
  expect(mail.text).toContain('Seu pedido de desistência foi atendido');
  expect(errors).toEqual([]);
}, 60_000);
