import type { Page } from 'playwright-core';
import { couponMessages, type CouponListAnswer, type CouponView } from '@ticketing/proto';
import { adminEvent } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

const TITLE = 'Jornada de Farmácia Hospitalar';

let stack: BrowserStack;
let eventId: string;
let adminToken: string;
let studentTypeId: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  ({ eventId, adminToken } = await adminEvent(stack.system, {
    title: TITLE,
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Estudante', price: '190.00' },
    ],
  }));
  const { body: event } = await stack.system.call('GET', `/api/events/${eventId}`);
  studentTypeId = (event.ticketTypes as { id: string; name: string }[]).find((type) => type.name === 'Estudante')!.id;
}, 180_000);
afterAll(() => stack?.stop());

const main = (page: Page) => page.getByRole('main');
const toast = (page: Page, title: string) => page.locator('.toast').filter({ hasText: title });
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');

async function storedCoupon(code: string): Promise<CouponView | undefined> {
  const { body } = await stack.system.call('GET', '/api/coupons?page=1', { token: adminToken });
  return (body as CouponListAnswer).coupons.find((coupon) => coupon.code === code);
}

test('Cupons: an admin creates a coupon for some types of one event, sees it listed, turns it off and on', async () => {
  const page = await (await stack.newContext({ token: adminToken })).newPage();
  await page.goto('/admin/pedidos');
  await page.getByRole('navigation', { name: 'Gestão' }).getByRole('link', { name: 'Cupons' }).click();
  await page.waitForURL((url) => url.pathname === '/admin/cupons');
  await main(page).getByRole('heading', { level: 1, name: 'Cupons', exact: true }).waitFor();
  const form = main(page).getByRole('region', { name: 'Novo cupom' });

  // Nothing filled: the API's own messages, on the fields.
  await form.getByRole('button', { name: 'Criar cupom' }).click();
  await form.getByText(couponMessages.code, { exact: true }).waitFor();
  await form.getByText(couponMessages.discountOne, { exact: true }).waitFor();

  await form.getByLabel('Código').fill('farma-hosp10');
  await form.getByLabel('Evento').selectOption(eventId);
  const types = form.getByRole('group', { name: 'Tipos de ingresso' });
  await types.getByLabel('Estudante', { exact: true }).check();
  await form.getByLabel('Percentual de desconto (%)').fill('10');
  await form.getByLabel('Limite de usos').fill('50');
  // São Paulo's wall time: 08:00 there is 11:00 UTC.
  await form.getByLabel('Válido a partir de').fill('2031-01-10T08:00');
  await form.getByLabel('Válido até').fill('2031-01-31T23:59');
  await form.getByRole('button', { name: 'Criar cupom' }).click();
  await toast(page, 'Cupom criado').getByText('O cupom FARMA-HOSP10 já pode ser usado na compra.').waitFor();

  const stored = await storedCoupon('FARMA-HOSP10');
  expect(stored).toMatchObject({
    eventId,
    percentOff: 10,
    amountOff: null,
    maxUses: 50,
    usedCount: 0,
    ticketTypeIds: [studentTypeId],
    isActive: true,
  });
  expect(new Date(stored!.startsAt!).toISOString()).toBe('2031-01-10T11:00:00.000Z');
  expect(new Date(stored!.endsAt!).toISOString()).toBe('2031-02-01T02:59:00.000Z');

  // Listed with its event, discount, uses of its limit, validity and status; the form is empty again.
  const table = main(page).getByRole('table', { name: 'Cupons' });
  const row = table.getByRole('row').filter({ hasText: 'FARMA-HOSP10' });
  for (const text of [
    TITLE,
    '10%',
    'Somente 1 tipo de ingresso',
    '0 de 50',
    'De 10/01/2031, 08:00 até 31/01/2031, 23:59',
    'Agendado',
  ]) {
    await row.getByText(text, { exact: true }).waitFor();
  }
  expect(await form.getByLabel('Código').inputValue()).toBe('');

  // A coupon of every event, a fixed amount, no limit, no end.
  await form.getByLabel('Código').fill('BEMVINDO');
  await form.getByLabel('Valor fixo (R$)').check();
  await form.getByLabel('Valor do desconto (R$)').fill('25,00');
  await form.getByRole('button', { name: 'Criar cupom' }).click();
  await toast(page, 'Cupom criado').getByText('O cupom BEMVINDO já pode ser usado na compra.').waitFor();
  const everyEvent = table.getByRole('row').filter({ hasText: 'BEMVINDO' });
  for (const text of ['Todos os eventos', brl('R$ 25,00'), '0 (sem limite)', 'Sem prazo', 'Ativo']) {
    await everyEvent.getByText(text, { exact: true }).waitFor();
  }
  expect(await storedCoupon('BEMVINDO')).toMatchObject({ eventId: null, percentOff: null, amountOff: '25.00' });

  // The same code again (the form is back to a percentage): the server's refusal.
  await form.getByLabel('Código').fill('bemvindo');
  await form.getByLabel('Percentual de desconto (%)').fill('5');
  await form.getByRole('button', { name: 'Criar cupom' }).click();
  await toast(page, 'Erro ao criar cupom').getByText(couponMessages.codeTaken).waitFor();

  // Off, then on again.
  await row.getByRole('button', { name: 'Desativar o cupom FARMA-HOSP10' }).click();
  await toast(page, 'Cupom desativado').waitFor();
  await row.getByText('Desativado', { exact: true }).waitFor();
  expect((await storedCoupon('FARMA-HOSP10'))?.isActive).toBe(false);
  await row.getByRole('button', { name: 'Reativar o cupom FARMA-HOSP10' }).click();
  await toast(page, 'Cupom reativado').waitFor();
  await row.getByText('Agendado', { exact: true }).waitFor();
  expect((await storedCoupon('FARMA-HOSP10'))?.isActive).toBe(true);
});
