import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ordersMessages, type EventView, type OrderView } from '@ticketing/proto';
import { makeCpf, waitFor } from '@ticketing/testkit';
import { verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

let stack: BrowserStack;
let adminToken: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  const admin = await stack.system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  adminToken = admin.body.token;
}, 180_000);
afterAll(() => stack?.stop());

const DAY_MS = 86_400_000;
const INVALID_CODE = 'Este código de cortesia não é válido ou já foi utilizado.';

/** An event on sale `days` from now, created by the administrator. */
async function createEvent(days: number, fields: Record<string, unknown> = {}): Promise<EventView> {
  const created = await stack.system.call('POST', '/api/events', {
    token: adminToken,
    body: {
      title: 'Workshop de Farmácia Clínica',
      description: 'Casos práticos de acompanhamento farmacoterapêutico.',
      date: new Date(Date.now() + days * DAY_MS).toISOString(),
      location: 'Belo Horizonte — MG',
      price: '150.00',
      ...fields,
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** A courtesy link made by the administrator: free, or promotional with its price. */
async function createLink(eventId: string, ticketCount: number, overridePrice: number | null = null) {
  const created = await stack.system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount, overridePrice },
  });
  expect(created.status).toBe(201);
  return created.body.code as string;
}

const ordersOf = async (token: string): Promise<OrderView[]> =>
  (await stack.system.call('GET', '/api/orders?page=1', { token })).body.orders;

/** Opens a page that records the script errors it throws. */
async function open(context: BrowserContext) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/**
 * Waits for the toast with this title and description, then closes it, so the next one waited for is new. Over a
 * modal dialog the page behind it (the toast's close button too) takes no clicks: the toast is left to expire.
 */
async function seeToast(page: Page, title: string, description: string, { overDialog = false } = {}) {
  const shown = page
    .locator('.toast')
    .filter({ has: page.locator('.toast__title', { hasText: title }) })
    .filter({ hasText: description });
  await shown.waitFor();
  if (overDialog) return;
  await shown.getByRole('button', { name: 'Fechar' }).click();
  await shown.waitFor({ state: 'detached' });
}

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page, name: string) => main(page).getByRole('heading', { level: 1, name, exact: true });
const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};
/** Intl writes "R$ 150,00" with a no-break space. */
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');
/** Waits for the address to be `path` (with its query string). */
const reach = (page: Page, path: string) => page.waitForURL((url) => url.pathname + url.search === path);

/** The inline message of the field labelled `label`. */
const fieldError = (page: Page, label: string) =>
  page
    .locator('.field')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.field__error');

test('with nothing on sale, the home page and the events list say so', async () => {
  const { page, errors } = await open(await stack.newContext());
  await page.goto('/');
  await main(page).getByText('Nenhum evento disponível no momento.').waitFor();
  await page.goto('/eventos');
  await main(page).getByText('Nenhum evento disponível no momento.').waitFor();
  expect(errors).toEqual([]);
});

test('the home page shows the earliest event as the hero and the next one beside it; one FAQ answer opens at a time', async () => {
  const later = await createEvent(4, { title: 'Curso de Integridade de Dados', maxAttendees: 30 });
  const earliest = await createEvent(2, {
    title: 'Workshop de Boas Práticas de Fabricação',
    imageUrl: '/images/events/workshop-bpf-sao-paulo.svg',
    maxAttendees: 60,
    price: '390.00',
  });
  const next = await createEvent(3, { title: 'Simpósio de Farmacovigilância', price: '590.00' });
  const { page, errors } = await open(await stack.newContext());
  await page.goto('/');

  const hero = main(page).getByRole('article', { name: earliest.title });
  await hero.waitFor();
  await hero.getByText('60 vagas restantes').waitFor();
  await hero.getByText(brl('R$ 390,00')).waitFor();
  expect(await hero.locator('img').getAttribute('src')).toBe('/images/events/workshop-bpf-sao-paulo.svg');
  const side = main(page).getByRole('complementary', { name: 'Próximos Eventos' });
  expect(await side.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([next.title]);
  await main(page).getByText(later.title).waitFor({ state: 'detached' });
  expect(await side.getByRole('link', { name: 'Ver todos os eventos' }).getAttribute('href')).toBe('/eventos');

  const faq = main(page).getByRole('region', { name: 'Perguntas frequentes' });
  const question = (name: string) => faq.locator('summary', { hasText: name });
  const questions = ['O que é o workshop?', 'Como garantir meu ingresso?', 'Como resgatar minhas cortesias?'];
  expect(await faq.locator('summary').allInnerTexts()).toEqual(questions);
  await question(questions[0]!).click();
  await faq.getByText('É um encontro presencial').waitFor();
  await question(questions[2]!).click();
  await faq.getByText('Abra o link de cortesia').waitFor();
  // The browser keeps one answer of the group open: the first closed when the third opened.
  await faq.getByText('É um encontro presencial').waitFor({ state: 'hidden' });
  expect(await faq.locator('details[open]').count()).toBe(1);

  // Anywhere on the hero card opens the event.
  await hero.getByText('60 vagas restantes').click({ force: true });
  await page.waitForURL(`**/event/${earliest.id}`);
  await heading(page, earliest.title).waitFor();
  expect(errors).toEqual([]);
});

test('/eventos searches title, description and place as one types; no match has its own message', async () => {
  const unique = await createEvent(12, {
    title: 'Workshop de Farmacogenética Aplicada',
    description: 'Polimorfismos e ajuste de dose na prática.',
    location: 'Porto Alegre — RS',
  });
  const { page, errors } = await open(await stack.newContext());
  await page.goto('/eventos');
  await heading(page, 'Todos os eventos').waitFor();
  const titles = () => main(page).getByRole('list').getByRole('heading', { level: 2 }).allInnerTexts();
  await main(page).getByRole('link', { name: unique.title }).waitFor();
  expect((await titles()).length).toBeGreaterThan(1);

  const search = page.getByRole('searchbox', { name: 'Buscar eventos' });
  await search.fill('porto alegre');
  await reach(page, '/eventos?q=porto+alegre');
  await main(page).getByText('1 evento', { exact: true }).waitFor();
  expect(await titles()).toEqual([unique.title]);

  await search.fill('polimorfismos');
  await reach(page, '/eventos?q=polimorfismos');
  expect(await titles()).toEqual([unique.title]);

  await search.fill('radiofarmácia veterinária');
  await main(page).getByText('Nenhum evento encontrado com os termos pesquisados.').waitFor();

  // The search is part of the address: opening it again shows the same results.
  await page.goto('/eventos?q=Farmacogen%C3%A9tica');
  expect(await search.inputValue()).toBe('Farmacogenética');
  await main(page).getByText('1 evento', { exact: true }).waitFor();
  expect(await titles()).toEqual([unique.title]);
  expect(errors).toEqual([]);
});

test('the event page shows spots left, Esgotado with a disabled button at 0, no count without a maximum, Evento encerrado off sale, and unknown events', async () => {
  const open40 = await createEvent(20, { title: 'Simpósio de Farmácia Hospitalar', maxAttendees: 40 });
  const full = await createEvent(21, { title: 'Workshop de Estudos de Estabilidade', maxAttendees: 2 });
  await createLink(full.id, 2); // a free link holds both spots
  const unlimited = await createEvent(22, { title: 'Jornada de Atenção Farmacêutica', maxAttendees: null });
  const past = await createEvent(-3, { title: 'Encontro de Farmácia Magistral', maxAttendees: 40 });
  const { page, errors } = await open(await stack.newContext());

  await page.goto(`/event/${open40.id}`);
  await heading(page, open40.title).waitFor();
  await main(page).getByText('40 vagas restantes').waitFor();
  await main(page).getByText('Belo Horizonte — MG').waitFor();
  await main(page).getByText('Casos práticos de acompanhamento farmacoterapêutico.').waitFor();
  await main(page).getByRole('button', { name: 'Comprar ingresso', disabled: false }).waitFor();
  expect(await main(page).getByRole('link', { name: 'Voltar' }).getAttribute('href')).toBe('/');

  await page.goto(`/events/${full.id}`);
  await heading(page, full.title).waitFor();
  await main(page).getByText('Esgotado', { exact: true }).waitFor();
  expect(await main(page).getByRole('button', { name: 'Evento Esgotado' }).isDisabled()).toBe(true);
  expect(await main(page).getByRole('button', { name: 'Comprar ingresso' }).count()).toBe(0);

  await page.goto(`/event/${unlimited.id}`);
  await heading(page, unlimited.title).waitFor();
  expect(
    await main(page)
      .getByText(/vagas? restantes?|Esgotado/)
      .count(),
  ).toBe(0);
  await main(page).getByRole('button', { name: 'Comprar ingresso', disabled: false }).waitFor();

  // The catalog says it is no longer on sale: the button says why, whatever spots are left.
  await page.goto(`/event/${past.id}`);
  await heading(page, past.title).waitFor();
  expect(await main(page).getByRole('button', { name: 'Evento encerrado' }).isDisabled()).toBe(true);
  expect(await main(page).getByRole('button', { name: 'Comprar ingresso' }).count()).toBe(0);

  await page.goto('/event/00000000-0000-4000-8000-000000000000');
  await heading(page, 'Evento não encontrado').waitFor();
  await page.goto('/event/nao-existe');
  await heading(page, 'Evento não encontrado').waitFor();
  expect(errors).toEqual([]);
});

test('a visitor who presses buy is asked to log in, and goes to the login or to register', async () => {
  const event = await createEvent(23, { title: 'Curso de Cosmetovigilância' });
  const { page, errors } = await open(await stack.newContext());
  await page.goto(`/event/${event.id}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  const prompt = page.getByRole('dialog', { name: 'Login necessário' });
  await prompt.getByText('Faça login ou cadastre-se para comprar ingressos').waitFor();
  expect(await prompt.getByRole('link', { name: 'Criar conta' }).getAttribute('href')).toBe('/register');
  // Escape closes it, as the browser's own popover does; the button opens it again.
  await page.keyboard.press('Escape');
  await prompt.waitFor({ state: 'hidden' });
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  await prompt.getByRole('link', { name: 'Entrar' }).click();
  await heading(page, 'Entrar').waitFor();
  expect(pathOf(page)).toBe('/login');
  await prompt.waitFor({ state: 'detached' });
  expect(errors).toEqual([]);
});

test('PIX: the QR code and the copy-paste code, copied once, for one order however often the button is pressed', async () => {
  const event = await createEvent(24, { title: 'Workshop de Validação de Métodos', price: '690.00' });
  const buyer = await verifiedBuyer(stack.system);
  const context = await stack.newContext({ token: buyer.token });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { page, errors } = await open(context);
  await page.goto(`/event/${event.id}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();

  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  await dialog.getByText('Total').waitFor();
  const summary = dialog.getByRole('region', { name: 'Resumo do pedido' });
  expect(await summary.getByRole('definition').allInnerTexts()).toEqual(['R$ 690,00', 'R$ 5,00', 'R$ 695,00'].map(brl));
  expect(await dialog.getByRole('tab', { name: 'PIX' }).getAttribute('aria-selected')).toBe('true');
  expect(await dialog.getByRole('tab').allInnerTexts()).toEqual(['PIX', 'Cartão', 'Boleto']);

  const request = page.waitForRequest((sent) => sent.url().endsWith('/api/orders') && sent.method() === 'POST');
  await dialog.getByRole('button', { name: 'Confirmar compra' }).dblclick();
  expect((await request).headers()['idempotency-key']).toMatch(/^[\w.:-]{1,100}$/);
  await seeToast(page, 'Pedido criado!', 'Complete o pagamento para confirmar seu ingresso.', { overDialog: true });

  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByRole('img', { name: 'QR Code PIX' }).waitFor();
  const [order, ...others] = await ordersOf(buyer.token);
  expect(others).toEqual([]);
  expect(order).toMatchObject({ status: 'pending', paymentMethod: 'pix', amount: '695.00' });
  await payment.getByText(order!.orderNumber).waitFor();
  expect(await payment.getByRole('img', { name: 'QR Code PIX' }).getAttribute('src')).toMatch(
    /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/,
  );
  const pixCode = await payment.getByLabel('PIX copia e cola').inputValue();
  expect(pixCode).toMatch(/^000201/);
  const pixDeadline = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(
    new Date(order!.expiresAt!),
  );
  await payment.getByText(`O código PIX expira às ${pixDeadline}.`).waitFor();
  await payment.getByRole('button', { name: 'Copiar código' }).click();
  await seeToast(page, 'Copiado!', 'Código PIX copiado para a área de transferência.', { overDialog: true });
  type WithClipboard = { navigator: { clipboard: { readText(): Promise<string> } } };
  expect(await page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.readText())).toBe(
    pixCode,
  );

  await payment.getByRole('button', { name: 'Concluir' }).click();
  await page.waitForURL('**/profile');
  const card = main(page).getByRole('article', { name: event.title });
  await card.getByText('Aguardando Pagamento', { exact: true }).waitFor();

  // Paid at the provider: the profile shows the order confirmed.
  stack.system.sandbox.confirm(order!.asaasPaymentId!);
  await waitFor(async () => (await ordersOf(buyer.token))[0]!.status === 'paid');
  await page.reload();
  await card.getByText('Confirmado', { exact: true }).waitFor();
  expect(errors).toEqual([]);
});

test('a boleto for the hero a day away would not clear in time: refused saying why, PIX instead, then Pagamento iniciado!', async () => {
  // Earlier than every other event of this file: it is the hero.
  const event = await createEvent(1, { title: 'Workshop de Assuntos Regulatórios', price: '250.00' });
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto('/');
  const hero = main(page).getByRole('article', { name: event.title });
  await hero.getByRole('button', { name: 'Comprar ingresso' }).click();

  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  await dialog.getByRole('tab', { name: 'Boleto' }).click();
  await dialog.getByText('O boleto tem vencimento em 7 dias úteis, ou antes, se o evento estiver próximo').waitFor();
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  await seeToast(page, 'Erro ao processar pagamento', ordersMessages.boletoTooLate, { overDialog: true });
  expect(await ordersOf(buyer.token)).toEqual([]);

  await dialog.getByRole('tab', { name: 'PIX' }).click();
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByRole('img', { name: 'QR Code PIX' }).waitFor();
  const [order] = await ordersOf(buyer.token);
  expect(order).toMatchObject({ status: 'pending', paymentMethod: 'pix', amount: '255.00' });

  await payment.getByRole('button', { name: 'Concluir' }).click();
  await seeToast(page, 'Pagamento iniciado!', 'Acompanhe o status do seu pedido na página de perfil.');
  expect(pathOf(page)).toBe('/');
  expect(errors).toEqual([]);
});

test('boleto from the event page: its link and its real due date', async () => {
  const event = await createEvent(34, { title: 'Workshop de Farmácia Estética', price: '250.00' });
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto(`/event/${event.id}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();

  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  await dialog.getByRole('tab', { name: 'Boleto' }).click();
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();

  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByText('Pague até o vencimento.').waitFor();
  const [order] = await ordersOf(buyer.token);
  expect(order).toMatchObject({ status: 'pending', paymentMethod: 'boleto', amount: '255.00' });
  const dueDate = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(
    new Date(order!.expiresAt!),
  );
  await payment.getByText(`Vencimento: ${dueDate}`).waitFor();
  const boleto = await payment.getByRole('link', { name: 'Abrir boleto' }).getAttribute('href');
  expect(boleto).toMatch(new RegExp(`/b/${order!.asaasPaymentId}$`));
  expect(errors).toEqual([]);
});

test('card: the payment link goes by e-mail and is offered in the dialog', async () => {
  const event = await createEvent(25, { title: 'Congresso de Assuntos Regulatórios', price: '1200.00' });
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto(`/event/${event.id}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  await dialog.getByRole('tab', { name: 'Cartão' }).click();
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();

  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await payment.getByText('Enviamos o link de pagamento com cartão de crédito para o seu e-mail.').waitFor();
  const [order] = await ordersOf(buyer.token);
  expect(order).toMatchObject({ status: 'pending', paymentMethod: 'credit_card', amount: '1205.00' });
  const link = await payment.getByRole('link', { name: 'Pagar com cartão agora' }).getAttribute('href');
  expect(link).toMatch(new RegExp(`/i/${order!.asaasPaymentId}$`));
  const mail = await stack.system.mailTo(buyer.email, `Finalize o pagamento do seu ingresso: ${event.title}`);
  expect(mail.text).toContain(link);

  await payment.getByRole('button', { name: 'Concluir' }).click();
  await page.waitForURL('**/profile');
  expect(errors).toEqual([]);
});

test('a promotional link shows its price with the original struck through, and the order costs it plus R$ 5,00', async () => {
  const event = await createEvent(26, { title: 'Workshop de Cosméticos e Saneantes', price: '150.00' });
  const code = await createLink(event.id, 5, 80);
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto(`/event/${event.id}?promo=${code.toLowerCase()}`);

  await main(page).getByText('Preço promocional').waitFor();
  expect(await main(page).locator('del').textContent()).toBe(brl('Preço original: R$ 150,00'));
  await main(page).getByText(brl('R$ 80,00')).waitFor();
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Comprar ingresso' });
  const summary = dialog.getByRole('region', { name: 'Resumo do pedido' });
  await summary.getByText('Total').waitFor();
  expect(await summary.getByRole('definition').allTextContents()).toEqual(
    ['Preço original: R$ 150,00 R$ 80,00', 'R$ 5,00', 'R$ 85,00'].map(brl),
  );
  await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
  await page.getByRole('dialog', { name: 'Pagamento' }).getByRole('button', { name: 'Concluir' }).click();
  await page.waitForURL('**/profile');
  const [order] = await ordersOf(buyer.token);
  expect(order).toMatchObject({ paymentMethod: 'pix', amount: '85.00' });
  const link = await stack.system.call('GET', `/api/courtesy-links/${code}`);
  expect(link.body.remainingTickets).toBe(4);
  expect(errors).toEqual([]);
});

test('a visitor on a promotional link sees its price without touching the page, whose code runs at once', async () => {
  const event = await createEvent(35, { title: 'Curso de Farmácia Clínica', price: '150.00' });
  const code = await createLink(event.id, 5, 80);
  const { page, errors } = await open(await stack.newContext());
  await page.goto(`/event/${event.id}?promo=${code}`);

  await main(page).getByText('Preço promocional').waitFor();
  expect(await main(page).locator('del').textContent()).toBe(brl('Preço original: R$ 150,00'));
  await main(page).getByText(brl('R$ 80,00')).waitFor();
  expect(errors).toEqual([]);
});

test('the server’s refusals show in a toast: an unverified e-mail, a missing CPF, an event that sold out meanwhile', async () => {
  const event = await createEvent(27, { title: 'Simpósio de Farmácia Oncológica', maxAttendees: 1 });

  const unverified = {
    name: 'Rafael Teixeira Lima',
    cpf: makeCpf(),
    birthDate: '10/02/1990',
    email: `rafael.${Date.now()}@example.com.br`,
    phone: '(31) 99777-6655',
    address: 'Avenida Afonso Pena, 1500 — Centro, Belo Horizonte — MG',
    password: 'senha-segura-1',
  };
  expect((await stack.system.call('POST', '/api/auth/register', { body: unverified })).status).toBe(202);
  const login = await stack.system.call('POST', '/api/auth/login', {
    body: { email: unverified.email, password: unverified.password },
  });
  const { page, errors } = await open(await stack.newContext({ token: login.body.token }));
  await page.goto(`/event/${event.id}`);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirmar compra' }).click();
  await seeToast(page, 'Erro ao processar pagamento', 'Confirme seu e-mail antes de comprar ingressos.', {
    overDialog: true,
  });

  // The administrator has no CPF on file.
  const asAdmin = await open(await stack.newContext({ token: adminToken }));
  await asAdmin.page.goto(`/event/${event.id}`);
  await main(asAdmin.page).getByRole('button', { name: 'Comprar ingresso' }).click();
  await asAdmin.page.getByRole('dialog').getByRole('button', { name: 'Confirmar compra' }).click();
  await seeToast(
    asAdmin.page,
    'Erro ao processar pagamento',
    'Erro ao processar pagamento: cadastre seu CPF no perfil antes de comprar.',
    { overDialog: true },
  );

  const buyer = await verifiedBuyer(stack.system);
  const late = await open(await stack.newContext({ token: buyer.token }));
  await late.page.goto(`/event/${event.id}`);
  await main(late.page).getByText('1 vaga restante').waitFor();
  await createLink(event.id, 1); // the last spot goes to a courtesy meanwhile
  await main(late.page).getByRole('button', { name: 'Comprar ingresso' }).click();
  await late.page.getByRole('dialog').getByRole('button', { name: 'Confirmar compra' }).click();
  await seeToast(late.page, 'Erro ao processar pagamento', 'Evento esgotado', { overDialog: true });
  // The page learns the event sold out: the dialog closes and the button says so.
  await late.page.getByRole('dialog').waitFor({ state: 'detached' });
  const soldOut = main(late.page).getByRole('button', { name: 'Evento Esgotado' });
  await soldOut.waitFor();
  expect(await soldOut.isDisabled()).toBe(true);
  expect(await ordersOf(buyer.token)).toEqual([]);
  expect([...errors, ...asAdmin.errors, ...late.errors]).toEqual([]);
}, 60_000);

test('a visitor opens a courtesy link, logs in, comes back to it, redeems it, and the ticket reaches the e-mail typed', async () => {
  const event = await createEvent(30, { title: 'Workshop de Farmacotécnica', maxAttendees: 10 });
  const code = await createLink(event.id, 3);
  const guest = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext());

  await page.goto(`/cortesia?code=${code.toLowerCase()}`);
  await seeToast(page, 'Login necessário', 'Faça login para resgatar sua cortesia');
  expect(pathOf(page)).toBe('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(guest.email);
  await page.getByLabel('Senha', { exact: true }).fill(guest.password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await reach(page, `/cortesia?code=${code}`);

  await heading(page, 'Resgate de Cortesia').waitFor();
  await main(page).getByText(event.title).waitFor();
  await main(page).getByText('(11) 4002-8922').waitFor();
  // Only administrators see how many tickets the link has left.
  expect(await main(page).getByText('ingresso(s) disponível(is)').count()).toBe(0);
  const field = (label: string) => page.getByLabel(label, { exact: true });
  expect(await field('Nome completo').inputValue()).toBe(guest.name);
  expect(await field('E-mail').inputValue()).toBe(guest.email);
  expect(await field('Confirme o e-mail').inputValue()).toBe(guest.email);
  expect(await field('CPF').inputValue()).toBe(guest.cpf);
  expect(await field('Telefone').inputValue()).toBe(guest.phone);
  expect(await field('Endereço completo').inputValue()).toBe(guest.address);
  expect(await field('Data de nascimento').inputValue()).toBe('1991-07-21');

  const typed = `convidada.${Date.now()}@parceiro.example.com.br`;
  await field('E-mail').fill(typed);
  await field('Confirme o e-mail').fill(typed);
  await field('Empresa parceira').fill('Laboratório Parceiro S.A.');
  await field('Cargo').fill('Farmacêutica responsável');
  await main(page).getByRole('button', { name: 'Resgatar cortesia' }).click();

  await heading(page, 'Cortesia Resgatada!').waitFor();
  await main(page).getByText('Seu ingresso foi enviado para o e-mail cadastrado.').waitFor();
  await main(page).getByText('Você pode acessar seus ingressos na página de perfil.').waitFor();
  expect(await main(page).getByRole('link', { name: 'Ver Meus Ingressos' }).getAttribute('href')).toBe('/profile');
  expect(await main(page).getByRole('link', { name: 'Voltar ao início' }).getAttribute('href')).toBe('/');
  await stack.system.mailTo(typed, `Seu ingresso: ${event.title}`);
  expect((await stack.system.call('GET', `/api/courtesy-links/${code}`)).body.remainingTickets).toBe(2);
  expect(await page.evaluate(() => localStorage.getItem('pendingCourtesyCode'))).toBeNull();

  // The same guest again: the server's refusal in a toast.
  await page.goto(`/cortesia?code=${code}`);
  await field('Empresa parceira').fill('Laboratório Parceiro S.A.');
  await field('Cargo').fill('Farmacêutica responsável');
  await main(page).getByRole('button', { name: 'Resgatar cortesia' }).click();
  await seeToast(page, 'Erro ao resgatar cortesia', 'Você já resgatou esta cortesia.');
  expect(errors).toEqual([]);
});

test('a code saved before logging in is taken up when /cortesia is opened without one', async () => {
  const event = await createEvent(31, { title: 'Curso de Microbiologia Farmacêutica' });
  const code = await createLink(event.id, 1);
  const guest = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext());
  await page.goto(`/cortesia?code=${code}`);
  await page.waitForURL('**/login');
  expect(await page.evaluate(() => localStorage.getItem('pendingCourtesyCode'))).toBe(code);

  // Logged in elsewhere (another tab): the session is in storage and the page is opened from the menu.
  await page.evaluate((token) => localStorage.setItem('token', token), guest.token);
  await page.goto('/cortesia');
  await reach(page, `/cortesia?code=${code}`);
  await heading(page, 'Resgate de Cortesia').waitFor();
  await main(page).getByText(event.title).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('pendingCourtesyCode'))).toBeNull();
  expect(errors).toEqual([]);
});

test('the redemption form shows every rule’s message inline and sends nothing until they pass', async () => {
  const event = await createEvent(32, { title: 'Workshop de Controle de Qualidade', maxAttendees: 20 });
  const code = await createLink(event.id, 3);
  const { page, errors } = await open(await stack.newContext({ token: adminToken }));
  const redeems: string[] = [];
  page.on('request', (request) => request.url().includes('/api/courtesy/redeem') && redeems.push(request.url()));
  await page.goto(`/cortesia?code=${code}`);
  await heading(page, 'Resgate de Cortesia').waitFor();
  await main(page).getByText('3 ingresso(s) disponível(is)').waitFor();

  const field = (label: string) => page.getByLabel(label, { exact: true });
  const submit = main(page).getByRole('button', { name: 'Resgatar cortesia' });
  for (const label of ['Nome completo', 'E-mail', 'Confirme o e-mail', 'CPF', 'Telefone', 'Endereço completo']) {
    await field(label).fill('');
  }
  await submit.click();
  const expected: [string, string][] = [
    ['Nome completo', 'Nome deve ter pelo menos 2 caracteres'],
    ['E-mail', 'Email inválido'],
    ['Confirme o e-mail', 'Email inválido'],
    ['CPF', 'CPF deve estar no formato 000.000.000-00'],
    ['Telefone', 'Telefone deve estar no formato (00) 00000-0000'],
    ['Empresa parceira', 'Empresa parceira é obrigatória'],
    ['Cargo', 'Cargo é obrigatório'],
    ['Data de nascimento', 'Data deve estar no formato AAAA-MM-DD'],
    ['Endereço completo', 'Endereço deve ter pelo menos 10 caracteres'],
  ];
  for (const [label, message] of expected) {
    expect({ label, message: await fieldError(page, label).innerText() }).toEqual({ label, message });
  }

  // Masks format as one types; the code field upper-cases nothing here, the form carries the link's code.
  await field('CPF').pressSequentially('11111111111');
  expect(await field('CPF').inputValue()).toBe('111.111.111-11');
  await field('Telefone').pressSequentially('31987654321');
  expect(await field('Telefone').inputValue()).toBe('(31) 98765-4321');
  await field('E-mail').fill('ana@example.com');
  await field('Confirme o e-mail').fill('outra@example.com');
  await field('Data de nascimento').fill('2999-01-01');
  await submit.click();
  await expectError(fieldError(page, 'Confirme o e-mail'), 'Os emails não coincidem');
  await expectError(fieldError(page, 'CPF'), 'CPF inválido');
  await expectError(fieldError(page, 'Data de nascimento'), 'A data de nascimento deve estar no passado');
  await expectError(fieldError(page, 'Telefone'), null);
  expect(redeems).toEqual([]);
  expect(errors).toEqual([]);
});

async function expectError(error: Locator, message: string | null) {
  if (message === null) await error.waitFor({ state: 'detached' });
  else expect(await error.innerText()).toBe(message);
}

test('/cortesia without a code: Continuar waits for a code, blank codes are refused, unknown ones explained, promotional ones lead to their event', async () => {
  const event = await createEvent(33, { title: 'Workshop de Gestão de Riscos', price: '300.00' });
  const promo = await createLink(event.id, 2, 120);
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto('/cortesia');
  await heading(page, 'Resgate de Cortesia').waitFor();
  const input = page.getByLabel('Insira o código de cortesia recebido:', { exact: true });
  const proceed = main(page).getByRole('button', { name: 'Continuar' });
  expect(await input.getAttribute('placeholder')).toBe('CDPI12345ABC');
  expect(await proceed.isDisabled()).toBe(true);
  expect(await main(page).getByRole('link', { name: 'Voltar ao início' }).getAttribute('href')).toBe('/');

  await input.fill('   ');
  await proceed.click();
  await seeToast(page, 'Código inválido', 'Por favor, insira um código válido');
  expect(pathOf(page)).toBe('/cortesia');

  await input.fill('');
  await input.pressSequentially('cdpi00000zzz');
  expect(await input.inputValue()).toBe('CDPI00000ZZZ');
  await input.press('Enter');
  await reach(page, '/cortesia?code=CDPI00000ZZZ');
  await heading(page, 'Código inválido').waitFor();
  await main(page).getByText(INVALID_CODE).waitFor();
  await main(page).getByRole('link', { name: 'Voltar ao início' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto(`/cortesia?code=${promo}`);
  await reach(page, `/event/${event.id}?promo=${promo}`);
  await main(page).getByText(brl('R$ 120,00')).waitFor();
  expect(errors).toEqual([]);
});

test('pages come rendered: without JavaScript the event and the next events are there; with it they hydrate as they are', async () => {
  const event = await createEvent(24, { title: 'Simpósio de Farmacovigilância', price: '290.00', maxAttendees: 60 });
  await createEvent(25, { title: 'Congresso de Assuntos Regulatórios' });
  const inBrazil = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('pt-BR', { ...options, timeZone: 'America/Sao_Paulo' }).format(new Date(event.date));
  const plain = await (await stack.newContext({ javaScriptEnabled: false })).newPage();
  await plain.goto(`/event/${event.id}`);
  const content = await main(plain).innerText();
  for (const text of [
    event.title,
    inBrazil({ dateStyle: 'long' }),
    inBrazil({ timeStyle: 'short' }),
    brl('R$ 290,00'),
    '60 vagas restantes',
  ]) {
    expect(content).toContain(text);
  }
  // Buying asks a visitor to log in, which the browser does by itself: it works without the page's code.
  await main(plain).getByRole('button', { name: 'Comprar ingresso' }).click();
  await plain.getByRole('dialog', { name: 'Login necessário' }).getByRole('link', { name: 'Entrar' }).click();
  await plain.waitForURL('**/login');
  const listed: EventView[] = (await stack.system.call('GET', '/api/events')).body;
  await plain.goto('/');
  const home = await main(plain).innerText();
  expect(home).toContain(listed[0]!.title);
  expect(home).toContain('Próximos Eventos');
  expect(home).toContain(listed[1]!.title);

  const context = await stack.newContext();
  const messages: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
  });
  // The server's heading, taken before any script runs: hydration adopts that very element, a failed one replaces it.
  type Node = { isConnected: boolean } & Record<string, unknown>;
  type Document = { readyState: string; addEventListener(type: string, listener: () => void): void };
  type Browser = { document: Document & { querySelector(selector: string): Node | null }; serverHeading?: Node | null };
  await context.addInitScript(() => {
    const browser = globalThis as unknown as Browser;
    browser.document.addEventListener('readystatechange', () => {
      if (browser.document.readyState === 'interactive')
        browser.serverHeading = browser.document.querySelector('#root h1');
    });
  });
  const { page, errors } = await open(context);
  const hydratedAsServed = async () => {
    await page.waitForFunction(() => {
      const heading = (globalThis as unknown as Browser).document.querySelector('#root h1');
      return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber'));
    });
    return page.evaluate(() => {
      const browser = globalThis as unknown as Browser;
      return browser.serverHeading != null && browser.serverHeading === browser.document.querySelector('#root h1');
    });
  };
  // A visitor's page runs its code at the first click or key: a key that changes nothing.
  await page.goto('/');
  await page.keyboard.press('Shift');
  expect(await hydratedAsServed()).toBe(true);
  await page.goto(`/event/${event.id}`);
  await page.keyboard.press('Shift');
  expect(await hydratedAsServed()).toBe(true);

  const calendar = await main(page).getByRole('link', { name: 'Adicionar à agenda' }).getAttribute('href');
  const ics = await fetch(new URL(calendar!, stack.system.gatewayUrl));
  expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
  await main(page).getByRole('button', { name: 'Comprar ingresso' }).click();
  await page.getByRole('dialog', { name: 'Login necessário' }).waitFor();
  expect(messages).toEqual([]);
  expect(errors).toEqual([]);
});
