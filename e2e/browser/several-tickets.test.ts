import type { Page } from 'playwright-core';
import { orderItemMessages, type OrderView } from '@ticketing/proto';
import { makeCpf, waitFor } from '@ticketing/testkit';
import { adminEvent, orderOf, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

/** Ticket types and lots on the event page, an order of several named tickets, and each ticket in the profile. */
let stack: BrowserStack;
beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);
afterAll(() => stack?.stop());

const DAY_MS = 86_400_000;
const TITLE = 'Congresso de Farmacovigilância';
/** Intl writes "R$ 150,00" with a no-break space. */
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');
const dayMonth = (iso: string) =>
  new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone: 'America/Sao_Paulo' }).format(
    new Date(iso),
  );
const main = (page: Page) => page.getByRole('main');

/** 'Profissional' in two lots, 'Estudante' with a document at the door, 'Patrocinador' on sale from next week. */
async function congress() {
  const lotEnds = new Date(Date.now() + 10 * DAY_MS).toISOString();
  const salesStart = new Date(Date.now() + 7 * DAY_MS).toISOString();
  const { eventId } = await adminEvent(stack.system, {
    title: TITLE,
    maxAttendees: 40,
    ticketTypes: [
      {
        name: 'Profissional',
        price: '390.00',
        lots: [{ price: '390.00', quantity: 12, endsAt: lotEnds }, { price: '450.00' }],
      },
      { name: 'Estudante', price: '190.00', requiresDocument: true },
      { name: 'Patrocinador', price: '900.00', salesStartAt: salesStart },
    ],
  });
  return { eventId, lotEnds, salesStart };
}

test('the event page lists each type with its price, lot, spots left, document and sale, without scripts too', async () => {
  const { eventId, lotEnds, salesStart } = await congress();
  for (const javaScriptEnabled of [false, true]) {
    const page = await (await stack.newContext({ javaScriptEnabled })).newPage();
    await page.goto(`/event/${eventId}`);
    const list = main(page).getByRole('region', { name: 'Ingressos' });
    const rows = list.getByRole('listitem');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    const professional = rows.filter({ hasText: 'Profissional' });
    await professional.getByText(brl('R$ 390,00')).waitFor();
    await professional.getByText(`1º lote · até ${dayMonth(lotEnds)} ou enquanto durar`).waitFor();
    await professional.getByText('Restam 12').waitFor();
    const student = rows.filter({ hasText: 'Estudante' });
    await student.getByText('Conferir documento na entrada').waitFor();
    await rows
      .filter({ hasText: 'Patrocinador' })
      .getByText(`Vendas a partir de ${dayMonth(salesStart)}`)
      .waitFor();
    await main(page).getByRole('button', { name: 'Comprar ingresso' }).waitFor();
    await page.context().close();
  }
});

test('three tickets of two types for three holders: each named, the CPF asked where needed, one order, each ticket in the profile, one handed over', async () => {
  const { eventId } = await congress();
  const buyer = await verifiedBuyer(stack.system);
  const colleague = await verifiedBuyer(stack.system);
  const student = { name: 'Caio Mendes Prado', email: `caio.${Date.now()}@example.com.br`, cpf: makeCpf() };

  const page = await (await stack.newContext({ token: buyer.token })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/event/${eventId}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso', disabled: false }).click();

  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  // The first ticket, the buyer's own, is there from the start.
  const quantity = (type: string) => dialog.getByRole('group', { name: `Quantidade de ${type}` });
  expect(await quantity('Profissional').locator('output').textContent()).toBe('1');
  expect(await quantity('Patrocinador').count()).toBe(0);
  await dialog.getByRole('button', { name: 'Adicionar um ingresso Profissional' }).click();
  await dialog.getByRole('button', { name: 'Adicionar um ingresso Estudante' }).click();

  const ticket = (n: number, type: string) => dialog.getByRole('group', { name: `Ingresso ${n} · ${type}` });
  expect(await ticket(1, 'Profissional').getByLabel('Este ingresso é meu').isChecked()).toBe(true);
  await ticket(1, 'Profissional').getByText(`${buyer.name} · ${buyer.email}`).waitFor();
  await ticket(2, 'Profissional').getByLabel('Nome do titular').fill(colleague.name);
  await ticket(2, 'Profissional').getByLabel('E-mail do titular').fill(colleague.email);
  expect(await ticket(2, 'Profissional').getByLabel('CPF do titular').count()).toBe(0);
  await ticket(3, 'Estudante').getByLabel('Nome do titular').fill(student.name);
  await ticket(3, 'Estudante').getByLabel('E-mail do titular').fill(student.email);

  const summary = dialog.getByRole('region', { name: 'Resumo do pedido' });
  expect(await summary.getByRole('definition').allInnerTexts()).toEqual(
    ['R$ 780,00', 'R$ 190,00', 'R$ 15,00', 'R$ 985,00'].map(brl),
  );

  // No CPF for the student's ticket: said at its field, nothing sent.
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  await ticket(3, 'Estudante').getByText(orderItemMessages.holderCpfRequired('Estudante')).waitFor();
  expect(await stack.system.call('GET', '/api/orders?page=1', { token: buyer.token })).toMatchObject({
    body: { orders: [] },
  });

  await ticket(3, 'Estudante').getByLabel('CPF do titular').pressSequentially(student.cpf.replace(/\D/g, ''));
  const request = page.waitForRequest((sent) => sent.url().endsWith('/api/orders') && sent.method() === 'POST');
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  const [professionalId, studentId] = (await (
    await stack.system.call('GET', `/api/events/${eventId}`)
  ).body.ticketTypes) as { id: string }[];
  expect((await request).postDataJSON()).toMatchObject({
    eventId,
    paymentMethod: 'pix',
    items: [
      { ticketTypeId: professionalId!.id },
      { ticketTypeId: professionalId!.id, holder: { name: colleague.name, email: colleague.email } },
      { ticketTypeId: studentId!.id, holder: student },
    ],
  });
  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByRole('img', { name: 'QR Code PIX' }).waitFor();

  const { body } = await stack.system.call('GET', '/api/orders?page=1', { token: buyer.token });
  const order = body.orders[0] as OrderView;
  expect(order).toMatchObject({ status: 'pending', totalAmount: '985.00' });
  stack.system.sandbox.confirm(order.asaasPaymentId!);
  await waitFor(async () => {
    const listed = (await orderOf(stack.system, buyer, order.id)) as OrderView;
    return listed.status === 'paid' && listed.items.every((item) => item.qrCodeData);
  });
  await payment.getByRole('button', { name: 'Concluir' }).click();
  await page.waitForURL('**/profile');

  // The profile: a line per ticket, each one's QR code and PNG, and the holder handed over.
  const card = main(page).getByRole('article', { name: TITLE });
  await card.getByText('Confirmado', { exact: true }).waitFor();
  const lines = card.getByRole('region', { name: `Ingressos do pedido nº ${order.orderNumber}` }).getByRole('listitem');
  expect(await lines.count()).toBe(3);
  await lines.nth(1).getByText(colleague.name).waitFor();
  await lines.nth(2).getByText(student.name).waitFor();
  await card.getByText(brl('R$ 985,00'), { exact: true }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: 'Baixar ingresso 2 (PNG)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`ingresso-${order.orderNumber}-2.png`);

  const newcomer = { name: 'Davi Rezende Costa', email: `davi.${Date.now()}@example.com.br` };
  await card.getByRole('button', { name: 'Trocar titular do ingresso 3' }).click();
  const change = page.getByRole('dialog', { name: 'Trocar titular' });
  await change.getByLabel('Nome do titular').fill(newcomer.name);
  await change.getByLabel('E-mail do titular').fill(newcomer.email);
  await change.getByLabel('CPF do titular').pressSequentially(makeCpf().replace(/\D/g, ''));
  await change.getByRole('button', { name: 'Trocar titular' }).click();
  await page
    .locator('.toast')
    .filter({ hasText: 'Titular alterado' })
    .filter({ hasText: orderItemMessages.holderChanged })
    .waitFor();
  await lines.nth(2).getByText(newcomer.name).waitFor();
  expect(errors).toEqual([]);

  // The colleague finds the ticket bought for them under 'Ingressos em meu nome'.
  const theirs = await (await stack.newContext({ token: colleague.token })).newPage();
  await theirs.goto('/profile');
  const held = main(theirs).getByRole('region', { name: 'Ingressos em meu nome' });
  const heldTicket = held.getByRole('article', { name: TITLE });
  await heldTicket.getByText(buyer.name).waitFor();
  await heldTicket.getByRole('img', { name: `QR Code do seu ingresso para ${TITLE}` }).waitFor();
}, 90_000);
