import type { Locator, Page } from 'playwright-core';
import { makeCpf, waitFor } from '@ticketing/testkit';
import type { AdminEventView, OrderView } from '@ticketing/proto';
import { adminEvent, orderOf, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

const TITLE = 'Congresso de Farmacovigilância';
const STUDENT = 'Caio Mendes Prado';
const PHONE = { width: 390, height: 844 };

let stack: BrowserStack;
let adminToken: string;
/** A congress selling 'Profissional' and 'Estudante' (students show a document at the door), three tickets sold. */
let eventId: string;
let student: { cpf: string };
beforeAll(async () => {
  stack = await startBrowserStack();
  const { system } = stack;
  ({ eventId, adminToken } = await adminEvent(system, {
    title: TITLE,
    maxAttendees: 40,
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Estudante', price: '190.00', requiresDocument: true },
    ],
  }));
  const { body: event } = await system.call('GET', `/api/events/${eventId}`);
  const [professional, studentType] = event.ticketTypes as { id: string }[];
  const buyer = await verifiedBuyer(system);
  student = { cpf: makeCpf() };
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: {
      eventId,
      paymentMethod: 'pix',
      items: [
        { ticketTypeId: professional!.id },
        { ticketTypeId: professional!.id, holder: { name: 'Ana Souza Lima', email: 'ana.souza@example.com.br' } },
        {
          ticketTypeId: studentType!.id,
          holder: { name: STUDENT, email: 'caio.prado@example.com.br', cpf: student.cpf },
        },
      ],
    },
  });
  if (bought.status !== 201) throw new Error(`order not created: ${JSON.stringify(bought.body)}`);
  const order = bought.body.order as OrderView;
  system.sandbox.confirm(order.asaasPaymentId!);
  await waitFor(async () => (await orderOf(system, buyer, order.id))?.status === 'paid');
}, 180_000);
afterAll(() => stack?.stop());

const main = (page: Page) => page.getByRole('main');
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');
const ticketType = (scope: Page | Locator, position: number) =>
  scope.getByRole('group', { name: `Tipo de ingresso ${position}`, exact: true });
const lot = (scope: Locator, position: number, type: number) =>
  scope.getByRole('group', { name: `Lote ${position} do tipo ${type}`, exact: true });

async function adminPage(): Promise<Page> {
  return (await stack.newContext({ token: adminToken })).newPage();
}

async function adminEventOf(id: string): Promise<AdminEventView> {
  const { body } = await stack.system.call('GET', `/api/admin/events/${id}`, { token: adminToken });
  return body as AdminEventView;
}

test('an admin opens an event’s ticket types, gives one lots, is told what the catalog would refuse, and saves them', async () => {
  const page = await adminPage();
  await page.goto('/admin/eventos/novo');
  await main(page).getByRole('heading', { level: 1, name: 'Novo evento' }).waitFor();
  await page.getByLabel('Título', { exact: true }).fill('Simpósio de Farmácia Estética');
  const session = page.getByRole('group', { name: 'Sessão 1', exact: true });
  await session.getByLabel('Início').fill('2031-06-10T09:00');
  await session.getByLabel('Fim').fill('2031-06-10T18:00');
  await page.getByLabel('Local', { exact: true }).fill('Centro de Eventos — Curitiba, PR');
  // A plain event: the price alone, as always.
  await page.getByLabel('Preço (R$)', { exact: true }).fill('250,00');
  expect(await ticketType(page, 1).count()).toBe(0);

  await page.getByRole('button', { name: 'Adicionar tipo de ingresso' }).click();
  expect(await page.getByLabel('Preço (R$)', { exact: true }).count()).toBe(2);
  const first = ticketType(page, 1);
  expect(await first.getByLabel('Nome', { exact: true }).inputValue()).toBe('Ingresso');
  expect(await first.getByLabel('Preço (R$)', { exact: true }).inputValue()).toBe('250,00');
  await first.getByLabel('Nome', { exact: true }).fill('Profissional');

  const second = ticketType(page, 2);
  await second.getByLabel('Nome', { exact: true }).fill('Estudante');
  await second.getByLabel('Preço (R$)', { exact: true }).fill('120,00');
  await second.getByRole('checkbox', { name: 'Exige documento na entrada' }).check();
  await second.getByRole('button', { name: 'Adicionar lote' }).click();
  // The first lot starts at the type's price, and the type's own price gives way to its lots'.
  expect(await lot(second, 1, 2).getByLabel('Preço (R$)', { exact: true }).inputValue()).toBe('120,00');
  await lot(second, 1, 2).getByLabel('Termina em').fill('2031-05-01T00:00');
  await second.getByRole('button', { name: 'Adicionar lote' }).click();
  await lot(second, 2, 2).getByLabel('Preço (R$)', { exact: true }).fill('150,00');
  await lot(second, 2, 2).getByLabel('Termina em').fill('2031-04-01T00:00');
  await second.getByRole('button', { name: 'Adicionar lote' }).click();
  await lot(second, 3, 2).getByLabel('Preço (R$)', { exact: true }).fill('180,00');

  await page.getByRole('button', { name: 'Criar evento' }).click();
  await lot(second, 2, 2)
    .getByText('Os lotes devem terminar em ordem: cada data de fim depois da anterior', { exact: true })
    .waitFor();
  await lot(second, 2, 2).getByLabel('Termina em').fill('');
  await page.getByRole('button', { name: 'Criar evento' }).click();
  await lot(second, 2, 2)
    .getByText('Só o último lote pode ficar sem data de fim nem quantidade', { exact: true })
    .waitFor();
  await lot(second, 2, 2).getByLabel('Quantidade').fill('30');

  await page.getByRole('button', { name: 'Criar evento' }).click();
  await page.waitForURL((url) => /^\/admin\/eventos\/[0-9a-f-]{36}$/.test(url.pathname));
  const saved = await adminEventOf(new URL(page.url()).pathname.split('/').at(-1)!);
  expect(saved.adminTicketTypes).toEqual([
    expect.objectContaining({ name: 'Profissional', price: '250.00', requiresDocument: false, lots: [] }),
    expect.objectContaining({
      name: 'Estudante',
      requiresDocument: true,
      lots: [
        expect.objectContaining({ price: '120.00', localEndsAt: '2031-05-01T00:00', quantity: null, taken: 0 }),
        expect.objectContaining({ price: '150.00', localEndsAt: null, quantity: 30, taken: 0 }),
        expect.objectContaining({ price: '180.00', localEndsAt: null, quantity: null, taken: 0 }),
      ],
    }),
  ]);
  // The editor shows them again as saved.
  // The type and each of its three lots: none sold yet.
  // Waits for the fourth: the four may not show at once.
  await ticketType(page, 2).getByText('Vendidos ou reservados: 0').nth(3).waitFor();
  expect(await ticketType(page, 2).getByText('Vendidos ou reservados: 0').count()).toBe(4);
  expect(await lot(ticketType(page, 2), 2, 2).getByLabel('Quantidade').inputValue()).toBe('30');
}, 60_000);

test('types that sold stay: the editor shows what each took, the sales page and the participants list them by type', async () => {
  const page = await adminPage();
  await page.goto(`/admin/eventos/${eventId}`);
  const professional = ticketType(page, 1);
  await professional.getByText('Vendidos ou reservados: 2').waitFor();
  const remove = professional.getByRole('button', { name: 'Remover tipo de ingresso 1' });
  expect(await remove.isDisabled()).toBe(true);
  expect(await professional.locator('.remove-button').getAttribute('title')).toBe(
    'Este tipo já tem ingressos vendidos ou reservados e não pode ser removido',
  );

  await page.goto(`/admin/vendas?eventId=${eventId}`);
  const perType = main(page).getByRole('table', { name: 'Vendas por tipo de ingresso' });
  const row = (name: string) => perType.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  await row('Profissional').getByText(brl('R$ 780,00'), { exact: true }).waitFor();
  await row('Estudante').getByText(brl('R$ 190,00'), { exact: true }).waitFor();

  await page.goto(`/admin/eventos/${eventId}/participantes`);
  const holder = main(page).getByRole('row').filter({ hasText: STUDENT });
  await holder.getByRole('cell', { name: 'Estudante', exact: true }).waitFor();
  expect(await page.getByRole('columnheader', { name: 'Tipo', exact: true }).count()).toBe(1);
}, 60_000);

test('at the door a student found by CPF is shown with their type, and let in with “Conferir documento — Estudante”', async () => {
  const page = await adminPage();
  await page.setViewportSize(PHONE);
  await page.goto('/verificar');
  const choice = page.getByLabel('Evento desta entrada');
  await choice.locator(`option[value="${eventId}"]`).waitFor({ state: 'attached' });
  if (!(await choice.isVisible())) await page.getByText('Opções da leitura', { exact: true }).click();
  await choice.selectOption(eventId);

  await page.getByRole('button', { name: 'Buscar participante' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buscar participante' });
  await dialog.getByLabel('Nome, CPF, e-mail ou código do pedido').fill(student.cpf);
  const guest = dialog.getByRole('list', { name: 'Participantes encontrados' }).getByRole('listitem');
  await guest.filter({ hasText: STUDENT }).getByText('Estudante · exige documento', { exact: true }).waitFor();
  await guest.getByRole('button', { name: `Admitir ${STUDENT}` }).click();

  const verdict = page.getByRole('alert').filter({ hasText: `✓ ${STUDENT}` });
  await verdict.getByText('Conferir documento — Estudante', { exact: true }).waitFor();
}, 60_000);
