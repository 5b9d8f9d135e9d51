import type { Locator, Page } from 'playwright-core';
import {
  fromCents,
  maskCpf,
  refundMessages,
  toCents,
  type AdminOrderAnswer,
  type OrderSearchAnswer,
} from '@ticketing/proto';
import { readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, doorRefusesAsCancelled, redemptionForm, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

const EVENT_TITLE = 'Simpósio de Assistência Farmacêutica';
/** The buyer the admin looks for: accents the search must see past. */
const BUYER_NAME = 'Heloísa Quintanilha Barros';
const REFUND_REASON = 'Congresso remarcado; a compradora pediu o valor de volta';

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const money = (amount: string | number) => brl.format(Number(amount));
const dayInBrasilia = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: 'America/Sao_Paulo' });

let stack: BrowserStack;
let eventId: string;
let adminToken: string;
/** The orders made for the event, as the back office's API tells them once each settled. */
let orders: { pix: AdminOrderAnswer; card: AdminOrderAnswer; boleto: AdminOrderAnswer; courtesy: AdminOrderAnswer };
let pendingOrderId: string;
let buyerCpf: string;

type System = BrowserStack['system'];
type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;

const adminOrder = async (id: string): Promise<AdminOrderAnswer> =>
  (await stack.system.call('GET', `/api/admin/orders/${id}`, { token: adminToken })).body;

/** An order of `buyer` for the event, paid through the sandbox unless `pay` is false. */
async function order(system: System, buyer: Buyer, paymentMethod: string, pay = true): Promise<string> {
  const made = await system.call('POST', '/api/orders', { token: buyer.token, body: { eventId, paymentMethod } });
  if (made.status !== 201) throw new Error(`order not made: ${JSON.stringify(made.body)}`);
  if (pay) system.sandbox.confirm(made.body.order.asaasPaymentId);
  return made.body.order.id;
}

/** The order once paid and its ticket issued (payment, order, ticket and back: several hops on the bus). */
const settled = (id: string) =>
  waitFor(
    async () => {
      const answer = await adminOrder(id);
      return answer.order.status === 'paid' && answer.order.qrCodeData ? answer : undefined;
    },
    { timeoutMs: 60_000 },
  );

/** A guest redeems a free courtesy link: a paid order at R$ 0,00. */
async function courtesyOrder(system: System, guest: Buyer): Promise<string> {
  const link = await system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 1, overridePrice: null },
  });
  const redeemed = await system.call('POST', '/api/courtesy/redeem', {
    token: guest.token,
    body: { ...redemptionForm(guest, link.body.code, guest.email), name: 'Otávio Convidado Prado' },
  });
  if (redeemed.status !== 201) throw new Error(`courtesy not redeemed: ${JSON.stringify(redeemed.body)}`);
  return waitFor(async () => {
    const { body } = await system.call('GET', `/api/admin/orders?q=${encodeURIComponent(guest.email)}`, {
      token: adminToken,
    });
    return (body as OrderSearchAnswer).orders.find((row) => row.event.id === eventId && row.paymentMethod === null)?.id;
  });
}

beforeAll(async () => {
  stack = await startBrowserStack();
  const { system } = stack;
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT_TITLE, maxAttendees: 20 }));
  const [named, carded, slipped, waiting, guest] = await Promise.all(
    Array.from({ length: 5 }, () => verifiedBuyer(system)),
  );
  const renamed = await system.call('PUT', '/api/profile', {
    token: named!.token,
    body: { name: BUYER_NAME, currentPassword: named!.password },
  });
  if (renamed.status !== 200) throw new Error(`profile not renamed: ${JSON.stringify(renamed.body)}`);
  buyerCpf = named!.cpf;

  const [pix, card, boleto, pending, courtesy] = await Promise.all([
    order(system, named!, 'pix'),
    order(system, carded!, 'credit_card'),
    order(system, slipped!, 'boleto'),
    order(system, waiting!, 'pix', false),
    courtesyOrder(system, guest!),
  ]);
  pendingOrderId = pending;
  const [pixOrder, cardOrder, boletoOrder, courtesyAnswer] = await Promise.all(
    [pix, card, boleto, courtesy].map(settled),
  );
  orders = { pix: pixOrder!, card: cardOrder!, boleto: boletoOrder!, courtesy: courtesyAnswer! };
}, 240_000);
afterAll(() => stack?.stop());

const main = (page: Page) => page.getByRole('main');
const toast = (page: Page, title: string) => page.locator('.toast').filter({ hasText: title });
const exactly = (text: string) => new RegExp(`^${text}$`);

/** The value next to `label` in one of the page's lists of figures. */
async function figure(scope: Locator, label: string): Promise<string | null> {
  const pair = scope.locator('dl > div').filter({ has: scope.page().locator('dt', { hasText: exactly(label) }) });
  return pair.locator('dd').first().textContent();
}

async function adminPage(): Promise<Page> {
  const context = await stack.newContext({ token: adminToken });
  return context.newPage();
}

test('Vendas: the event’s revenue, orders, tickets and sales per day add up to the orders made', async () => {
  const paid = Object.values(orders).map((answer) => answer.order);
  const bought = paid.filter((sold) => sold.paymentMethod !== null);
  const grossCents = paid.reduce((sum, sold) => sum + toCents(sold.amount), 0);
  // A payment whose net the provider did not tell counts whole.
  const netCents = paid.reduce((sum, sold) => sum + toCents(sold.netAmount ?? sold.amount), 0);
  expect(grossCents).toBe(3 * 15_500);
  expect(netCents).toBeLessThan(grossCents);
  expect((await adminOrder(pendingOrderId)).order.status).toBe('pending');

  const page = await adminPage();
  await page.goto('/admin/vendas');
  await main(page).getByRole('heading', { level: 1, name: 'Vendas' }).waitFor();
  await main(page).getByRole('heading', { level: 2, name: 'Todos os eventos' }).waitFor();

  // Every event's view lists this one and leads to its own figures.
  const line = main(page).getByRole('table', { name: 'Vendas por evento' }).getByRole('row').filter({
    hasText: EVENT_TITLE,
  });
  await line.getByText(money(fromCents(grossCents)), { exact: true }).waitFor();
  await line.getByRole('link', { name: EVENT_TITLE }).click();
  await page.waitForURL((url) => url.pathname === '/admin/vendas' && url.searchParams.get('eventId') === eventId);
  await main(page)
    .getByRole('heading', { level: 2, name: new RegExp(`^${EVENT_TITLE}`) })
    .waitFor();
  expect(await page.getByLabel('Evento', { exact: true }).inputValue()).toBe(eventId);

  const revenue = main(page).getByRole('region', { name: 'Receita' });
  expect(await figure(revenue, 'Receita bruta')).toBe(money(fromCents(grossCents)));
  expect(await figure(revenue, 'Taxas')).toBe(money(fromCents(grossCents - netCents)));
  expect(await figure(revenue, 'Receita líquida')).toBe(money(fromCents(netCents)));
  expect(await figure(revenue, 'Reembolsado')).toBe(money(0));

  const byStatus = main(page).getByRole('region', { name: 'Pedidos por situação' });
  for (const [label, count] of [
    ['Aguardando Pagamento', '1'],
    ['Confirmado', '4'],
    ['Cancelado', '0'],
    ['Expirado', '0'],
    ['Reembolsado', '0'],
  ]) {
    expect([label, await figure(byStatus, label!)]).toEqual([label, count]);
  }
  const byMethod = main(page).getByRole('region', { name: 'Pedidos pagos por forma de pagamento' });
  for (const label of ['PIX', 'Cartão de crédito', 'Boleto', 'Cortesia']) {
    expect([label, await figure(byMethod, label)]).toEqual([label, '1']);
  }
  const tickets = main(page).getByRole('region', { name: 'Ingressos' });
  expect(await figure(tickets, 'Pagos')).toBe(String(bought.length));
  expect(await figure(tickets, 'Cortesias')).toBe('1');
  await main(page)
    .getByRole('region', { name: 'Entradas' })
    .getByText(/^O evento ainda não começou\./)
    .waitFor();

  // The chart's figures, as screen readers get them: bought orders per day of payment, in Brasília.
  const perDay = new Map<string, number[]>();
  for (const sold of bought) {
    const answer = Object.values(orders).find((candidate) => candidate.order.id === sold.id)!;
    const paidAt = answer.timeline.find((entry) => entry.kind === 'paid')!.at;
    const day = dayInBrasilia.format(new Date(paidAt));
    perDay.set(day, [...(perDay.get(day) ?? []), toCents(sold.amount)]);
  }
  const expectedDays = [...perDay].map(
    ([day, cents]) => `${day}${cents.length}${money(fromCents(cents.reduce((a, b) => a + b)))}`,
  );
  const chart = main(page).getByRole('table', { name: 'Vendas por dia' });
  await chart
    .locator('tbody tr')
    .nth(expectedDays.length - 1)
    .waitFor();
  expect(await chart.locator('tbody tr').allTextContents()).toEqual(expectedDays);

  // Back to every event through the picker.
  await page.getByLabel('Evento', { exact: true }).selectOption({ label: 'Todos os eventos' });
  await main(page).getByRole('heading', { level: 2, name: 'Todos os eventos' }).waitFor();
  expect(new URL(page.url()).search).toBe('');
});

test('Pedidos e pessoas: the buyer found by CPF and by name, the order refunded, the door refuses its ticket', async () => {
  const sold = orders.pix.order;
  const qrText = readQrCode(sold.qrCodeData!);
  expect(qrText).toMatch(/^T1\./);

  const page = await adminPage();
  await page.goto('/admin/pedidos');
  await main(page).getByRole('heading', { level: 1, name: 'Pedidos e pessoas' }).waitFor();
  const search = page.getByLabel('Buscar pedidos');
  const results = main(page).getByRole('table', { name: 'Pedidos', exact: true });

  // By CPF: her only order, her CPF masked; the search is in the address.
  await search.fill(buyerCpf);
  await main(page).getByText('1 pedido', { exact: true }).waitFor();
  await page.waitForURL((url) => url.searchParams.get('q') === buyerCpf);
  const row = results.getByRole('row').filter({ hasText: sold.orderNumber });
  await row.getByText(BUYER_NAME, { exact: true }).waitFor();
  await row.getByText(maskCpf(buyerCpf)!, { exact: true }).waitFor();
  await row.getByText(EVENT_TITLE, { exact: true }).waitFor();
  await row.getByText(money(sold.amount), { exact: true }).waitFor();
  await row.getByText('PIX', { exact: true }).waitFor();
  await row.getByText('Confirmado', { exact: true }).waitFor();
  expect(await results.locator('tbody tr').count()).toBe(1);

  // By name, without its accents.
  await search.fill('heloisa quintanilha');
  await page.waitForURL((url) => url.searchParams.get('q') === 'heloisa quintanilha');
  await main(page).getByText('1 pedido', { exact: true }).waitFor();
  await results.getByRole('link', { name: sold.orderNumber }).click();
  await page.waitForURL((url) => url.pathname === `/admin/pedidos/${sold.id}`);
  await main(page)
    .getByRole('heading', { level: 1, name: `Pedido ${sold.orderNumber}` })
    .waitFor();

  const history = main(page).getByRole('region', { name: 'Histórico' });
  const step = (label: string) => history.getByRole('listitem').filter({ has: page.getByText(label, { exact: true }) });
  for (const label of ['Pedido criado', 'Cobrança gerada', 'Pagamento confirmado', 'Ingresso emitido']) {
    await step(label).waitFor();
  }
  await main(page).getByText(BUYER_NAME, { exact: true }).waitFor();
  expect(await figure(main(page), 'Valor')).toBe(money(sold.amount));
  expect(await figure(main(page), 'Valor líquido')).toBe(money(sold.netAmount!));

  // The reason is required; then the server's message, and the order refunded.
  await main(page).getByRole('button', { name: 'Reembolsar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: `Reembolsar o pedido ${sold.orderNumber}?` });
  await dialog.getByText(/Esta ação não pode ser desfeita\.$/).waitFor();
  await dialog.getByRole('button', { name: 'Reembolsar', exact: true }).click();
  await dialog.getByText(refundMessages.reasonLength, { exact: true }).waitFor();
  await dialog.getByLabel('Motivo do reembolso').fill(REFUND_REASON);
  await dialog.getByRole('button', { name: 'Reembolsar', exact: true }).click();
  await toast(page, 'Reembolso solicitado').getByText(refundMessages.refundRequested, { exact: true }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  await main(page)
    .locator('.badge')
    .getByText(/^Reembols/)
    .waitFor();
  await step('Reembolso solicitado').getByText(REFUND_REASON, { exact: true }).waitFor();
  expect(await main(page).getByRole('button', { name: 'Reembolsar pedido' }).count()).toBe(0);

  // The door turns the ticket away, and the order's story ends with the money given back.
  const door = await doorRefusesAsCancelled(stack.system, adminToken, qrText);
  expect(door).toMatchObject({ success: false, code: 'cancelled' });
  await step('Reembolsado').waitFor({ timeout: 30_000 });
  await main(page).locator('.badge').getByText('Reembolsado', { exact: true }).waitFor();

  // Vendas counts the money as given back.
  await page.goto(`/admin/vendas?eventId=${eventId}`);
  const revenue = main(page).getByRole('region', { name: 'Receita' });
  await revenue.getByText('Reembolsado', { exact: true }).waitFor();
  expect(await figure(revenue, 'Reembolsado')).toBe(money(sold.amount));
  expect(await figure(revenue, 'Receita bruta')).toBe(money(fromCents(2 * toCents(sold.amount))));
});

test('a courtesy order has nothing to give back: the server’s refusal shows in the dialog', async () => {
  const guest = orders.courtesy.order;
  const page = await adminPage();
  await page.goto(`/admin/pedidos/${guest.id}`);
  await main(page)
    .getByRole('heading', { level: 1, name: `Pedido ${guest.orderNumber}` })
    .waitFor();
  expect(await figure(main(page), 'Pagamento')).toBe('Cortesia');
  await main(page).getByRole('button', { name: 'Reembolsar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: `Reembolsar o pedido ${guest.orderNumber}?` });
  await dialog.getByLabel('Motivo do reembolso').fill('Convite enviado por engano');
  await dialog.getByRole('button', { name: 'Reembolsar', exact: true }).click();
  await dialog.getByRole('alert').getByText(refundMessages.nothingToRefund, { exact: true }).waitFor();
  expect((await adminOrder(guest.id)).order.status).toBe('paid');
});
