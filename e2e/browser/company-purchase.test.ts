import type { Page } from 'playwright-core';
import { couponMessages, type OrderView } from '@ticketing/proto';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, issueNotasFiscais, orderOf, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

/** A company buys on a phone: its CNPJ, a coupon typed at checkout, the card in installments. */
let stack: BrowserStack;
beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);
afterAll(() => stack?.stop());

const PHONE = { width: 390, height: 844 };
const TITLE = 'Congresso Brasileiro de Farmácia Hospitalar';
/** Intl writes "R$ 150,00" with a no-break space. */
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');
const main = (page: Page) => page.getByRole('main');
const COMPANY = {
  cnpj: '11.222.333/0001-81',
  name: 'Laboratório Vida Saudável Ltda.',
  email: 'financeiro@vidasaudavel.com.br',
  purchaseOrder: 'PC-2026-0457',
};

interface BrowserWindow {
  innerWidth: number;
  document: { documentElement: { scrollWidth: number } };
}
/** Nothing wider than the phone's screen. */
const fitsThePhone = (page: Page) =>
  page.evaluate(() => {
    const browser = globalThis as unknown as BrowserWindow;
    return browser.document.documentElement.scrollWidth <= browser.innerWidth;
  });

test('a company buys on a phone with a coupon, in 3x by card: the charge is the company’s, the finance e-mail gets it, the profile shows it and its nota fiscal', async () => {
  const { eventId, adminToken } = await adminEvent(stack.system, {
    title: TITLE,
    price: '1290.00',
    maxInstallments: 6,
    minInstallmentValue: '100.00',
  });
  const coupon = await stack.system.call('POST', '/api/coupons', {
    token: adminToken,
    body: { code: 'EQUIPE10', eventId, percentOff: 10, maxUses: 5 },
  });
  expect(coupon.status).toBe(201);
  await issueNotasFiscais(stack.system, adminToken);
  const buyer = await verifiedBuyer(stack.system);

  const page = await (await stack.newContext({ token: buyer.token })).newPage();
  await page.setViewportSize(PHONE);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/event/${eventId}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso', disabled: false }).click();
  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });

  // As a company: a mistyped CNPJ is caught at its field before anything is sent.
  await dialog.getByLabel('Comprar como empresa').check();
  await dialog.getByLabel('CNPJ').pressSequentially('11222333000182');
  await dialog.getByLabel('Razão social').fill(COMPANY.name);
  await dialog.getByLabel('E-mail do financeiro').fill(COMPANY.email);
  await dialog.getByLabel('Pedido de compra (opcional)').fill(COMPANY.purchaseOrder);
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  await dialog.getByText('CNPJ inválido').waitFor();
  await dialog.getByLabel('CNPJ').fill('');
  await dialog.getByLabel('CNPJ').pressSequentially('11222333000181');
  expect(await dialog.getByLabel('CNPJ').inputValue()).toBe(COMPANY.cnpj);

  // A coupon that does not exist is refused with the server's words; the right one takes 10 % off the ticket.
  await dialog.getByLabel('Cupom').fill('equipe20');
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  await dialog.getByText(couponMessages.invalid).waitFor();
  await dialog.getByLabel('Cupom').fill('equipe10');
  await dialog.getByRole('button', { name: 'Aplicar' }).click();
  const summary = dialog.getByRole('region', { name: 'Resumo do pedido' });
  await summary.getByText(brl('− R$ 129,00')).waitFor();
  await summary.getByText(brl('R$ 1.166,00')).waitFor();

  // By card, in 3x of the discounted total.
  await dialog.getByRole('tab', { name: 'Cartão' }).click();
  const installments = dialog.getByLabel('Parcelas');
  const options = await installments.locator('option').allInnerTexts();
  expect(options[0]).toBe(brl('1x de R$ 1.166,00 (à vista)'));
  expect(options).toHaveLength(6);
  await installments.selectOption({ label: brl('3x de R$ 388,67') });
  expect(await fitsThePhone(page)).toBe(true);

  const request = page.waitForRequest((sent) => sent.url().endsWith('/api/orders') && sent.method() === 'POST');
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  expect((await request).postDataJSON()).toMatchObject({
    eventId,
    paymentMethod: 'credit_card',
    installments: 3,
    couponCode: 'EQUIPE10',
    company: COMPANY,
  });
  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByRole('button', { name: 'Concluir' }).waitFor();
  expect(await fitsThePhone(page)).toBe(true);

  const { body } = await stack.system.call('GET', '/api/orders?page=1', { token: buyer.token });
  const order = body.orders[0] as OrderView;
  expect(order).toMatchObject({
    status: 'pending',
    amount: '1166.00',
    discountAmount: '129.00',
    couponCode: 'EQUIPE10',
    installments: 3,
    company: COMPANY,
  });
  // The charge is in the company's name, in 3 installments, and its finance department has the card's link.
  const listed = (await (
    await fetch(`${stack.system.sandbox.apiUrl}/payments?externalReference=${order.id}`, {
      headers: { access_token: 'chave-do-painel' },
    })
  ).json()) as { data: { customer: string; installmentCount: number }[] };
  const [charge] = listed.data;
  expect(charge!.installmentCount).toBe(3);
  const customer: unknown = await (
    await fetch(`${stack.system.sandbox.apiUrl}/customers/${charge!.customer}`, {
      headers: { access_token: 'chave-do-painel' },
    })
  ).json();
  expect(customer).toMatchObject({ cpfCnpj: '11222333000181', name: COMPANY.name });
  await waitFor(() =>
    stack.system.catcher
      .messages()
      .find((mail) => mail.to.includes(COMPANY.email) && mail.text?.includes(order.payment!.invoiceUrl!)),
  );

  stack.system.sandbox.confirm(order.asaasPaymentId!);
  await waitFor(async () => ((await orderOf(stack.system, buyer, order.id)) as OrderView).status === 'paid');
  await payment.getByRole('button', { name: 'Concluir' }).click();
  await page.waitForURL('**/profile');
  const card = main(page).getByRole('article', { name: TITLE });
  await card.getByText('Confirmado', { exact: true }).waitFor();
  await card.getByText(`Empresa: ${COMPANY.name} (CNPJ ${COMPANY.cnpj})`).waitFor();
  await card.getByText(brl('Cupom EQUIPE10: − R$ 129,00')).waitFor();
  await card.getByText(brl('Cartão em 3x de R$ 388,67')).waitFor();
  expect(await fitsThePhone(page)).toBe(true);

  // Once the city authorized the nota fiscal, the order links its PDF.
  const invoiced = await waitFor(async () => {
    const now = (await orderOf(stack.system, buyer, order.id)) as OrderView;
    return now.invoice?.status === 'authorized' && now;
  });
  await page.reload();
  const note = card.getByRole('link', { name: 'Nota fiscal' });
  expect(await note.getAttribute('href')).toBe(invoiced.invoice!.pdfUrl);
  expect(errors).toEqual([]);
});
