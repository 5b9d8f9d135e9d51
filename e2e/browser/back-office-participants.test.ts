import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { maskCpf } from '@ticketing/proto';
import { readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, paidTicket, redemptionForm, verifiedBuyer } from '../../scripts/lib/system.ts';
import { congressOfTwoDays, startBrowserStack, type BrowserStack } from './support.ts';

const EVENT_TITLE = 'Jornada de Farmácia Clínica: São Paulo';
const TICKET_MAIL = `Seu ingresso: ${EVENT_TITLE}`;
/** The buyer: accents a spreadsheet must keep. */
const BUYER_NAME = 'João Ângelo Conceição';
/** The guest: a name a spreadsheet would run as a formula. */
const GUEST_NAME = '=HYPERLINK("x")';

let stack: BrowserStack;
let eventId: string;
let adminToken: string;
let buyer: { cpf: string; orderId: string; orderNumber: string; qrCodeData: string };
let guest: { cpf: string; email: string; linkId: string; code: string };

/** The little of the browser the checks read inside the page (the test code is typed without the DOM). */
interface PrintingWindow {
  print(): void;
  printed?: number;
}

beforeAll(async () => {
  stack = await startBrowserStack();
  const { system } = stack;
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT_TITLE, maxAttendees: 20 }));

  const person = await verifiedBuyer(system);
  const renamed = await system.call('PUT', '/api/profile', {
    token: person.token,
    body: { name: BUYER_NAME, currentPassword: person.password },
  });
  if (renamed.status !== 200) throw new Error(`profile not renamed: ${JSON.stringify(renamed.body)}`);
  const bought = await system.call('POST', '/api/orders', {
    token: person.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  system.sandbox.confirm(bought.body.order.asaasPaymentId);
  const paid = await waitFor(async () => {
    const { body } = await system.call('GET', '/api/orders?page=1', { token: person.token });
    const order = body.orders.find((candidate: { id: string }) => candidate.id === bought.body.order.id);
    return order?.qrCodeData && order;
  });
  buyer = { cpf: person.cpf, orderId: paid.id, orderNumber: paid.orderNumber, qrCodeData: paid.qrCodeData };

  const link = await system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 2, overridePrice: null },
  });
  const invited = await verifiedBuyer(system);
  const email = `convidado.${Date.now()}@parceiro.example.com.br`;
  const redeemed = await system.call('POST', '/api/courtesy/redeem', {
    token: invited.token,
    body: { ...redemptionForm(invited, link.body.code, email), name: GUEST_NAME },
  });
  if (redeemed.status !== 201) throw new Error(`courtesy not redeemed: ${JSON.stringify(redeemed.body)}`);
  guest = { cpf: invited.cpf, email, linkId: link.body.id, code: link.body.code };
  // Both tickets issued, and the guest's first ticket e-mail sent.
  await system.mailTo(email, TICKET_MAIL);
  await waitFor(async () => {
    const { body } = await system.call('GET', `/api/admin/tickets?eventId=${eventId}`, { token: adminToken });
    return body.tickets.length === 2;
  });
}, 180_000);
afterAll(() => stack?.stop());

/** The toast on screen with `title` (the shell shows one at a time). */
const toast = (page: Page, title: string) => page.locator('.toast').filter({ hasText: title });

/** The table row of the holder named `name`. */
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

async function participantsPage(event = eventId) {
  const context = await stack.newContext({ token: adminToken });
  // The print dialog would wait for a person: the page's call to it is counted instead.
  await context.addInitScript(() => {
    const window = globalThis as unknown as PrintingWindow;
    window.print = () => {
      window.printed = (window.printed ?? 0) + 1;
    };
  });
  const page = await context.newPage();
  await page.goto(`/admin/eventos/${event}/participantes`);
  await page.getByRole('heading', { name: 'Participantes', level: 1 }).waitFor();
  return page;
}

/** The file a click on 'Exportar CSV' downloads, read as a spreadsheet program would (`;`, byte order mark). */
async function exportedCsv(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { fileName: download.suggestedFilename(), rows: parse(bytes, { delimiter: ';', bom: true }) as string[][] };
}

test('participants: every ticket with its payment, CPF masked, searched, and exported with accents kept and formulas neutralised', async () => {
  const page = await participantsPage();
  await page.getByRole('navigation', { name: 'Gestão' }).getByRole('link', { name: 'Eventos' }).waitFor();
  await page.getByRole('link', { name: '← Voltar para eventos' }).waitFor();
  await page.getByText(EVENT_TITLE, { exact: true }).waitFor();
  await page.getByText('2 participantes encontrados', { exact: true }).waitFor();

  const bought = row(page, BUYER_NAME);
  await bought.getByRole('cell', { name: 'PIX', exact: true }).waitFor();
  await bought.getByRole('cell', { name: maskCpf(buyer.cpf)!, exact: true }).waitFor();
  await bought.getByText('Válido', { exact: true }).waitFor();
  const courtesy = row(page, GUEST_NAME);
  await courtesy.getByRole('cell', { name: 'Cortesia', exact: true }).waitFor();
  await courtesy.getByRole('cell', { name: guest.email, exact: true }).waitFor();
  expect(await page.getByText(guest.cpf, { exact: true }).count()).toBe(0);

  // The search narrows the list; the spreadsheet follows it, then the whole list again.
  await page.getByLabel('Buscar', { exact: true }).fill('joao');
  await page.getByText('1 participante encontrado', { exact: true }).waitFor();
  expect(await row(page, GUEST_NAME).count()).toBe(0);
  const narrowed = await exportedCsv(page);
  expect(narrowed.rows.map((cells) => cells[0])).toEqual(['Nome', BUYER_NAME]);
  await page.getByLabel('Buscar', { exact: true }).fill('');
  await page.getByText('2 participantes encontrados', { exact: true }).waitFor();

  const { fileName, rows } = await exportedCsv(page);
  expect(fileName).toBe(`Participantes - ${EVENT_TITLE.replace(':', '-')}.csv`);
  expect(rows[0]).toEqual(['Nome', 'E-mail', 'CPF', 'Tipo', 'Pedido', 'Forma de pagamento', 'Situação', 'Entrada']);
  const byName = new Map(rows.slice(1).map((cells) => [cells[0], cells]));
  expect(byName.get(BUYER_NAME)).toEqual([
    BUYER_NAME,
    expect.any(String),
    buyer.cpf,
    'Ingresso',
    String(buyer.orderNumber),
    'PIX',
    'Válido',
    '',
  ]);
  expect(byName.get(`'${GUEST_NAME}`)).toEqual([
    `'${GUEST_NAME}`,
    guest.email,
    guest.cpf,
    'Ingresso',
    expect.any(String),
    'Cortesia',
    'Válido',
    '',
  ]);

  // The sign-in sheet: every participant with a column to sign, alone on paper.
  await page.getByRole('button', { name: 'Imprimir lista' }).click();
  await page.waitForFunction(() => (globalThis as unknown as PrintingWindow).printed === 1);
  await page.emulateMedia({ media: 'print' });
  const sheet = page.getByRole('region', { name: 'Lista para impressão' });
  await sheet.getByRole('columnheader', { name: 'Assinatura' }).waitFor();
  expect(await sheet.getByRole('row').count()).toBe(3);
  await sheet.getByRole('cell', { name: BUYER_NAME, exact: true }).waitFor();
  await sheet.getByRole('cell', { name: GUEST_NAME, exact: true }).waitFor();
  expect(await page.getByRole('banner').isVisible()).toBe(false);
  expect(await page.getByRole('button', { name: 'Exportar CSV' }).isVisible()).toBe(false);
});

test('participants: the ticket e-mail sent again, and a ticket used at the door reset', async () => {
  const page = await participantsPage();
  await row(page, GUEST_NAME)
    .getByRole('button', { name: `Reenviar ingresso de ${GUEST_NAME}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reenviar ingresso?' });
  await dialog.getByText(guest.email, { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Reenviar', exact: true }).click();
  await toast(page, 'Ingresso reenviado')
    .getByText(`O e-mail do ingresso será reenviado para ${guest.email}`, { exact: true })
    .waitFor();
  const again = await stack.system.mailTo(guest.email, TICKET_MAIL, 1);
  expect(again.attachments.map((file) => file.filename)).toContain(`ingresso-${await guestOrderNumber()}.png`);

  // The buyer comes in: the row shows when, and the admin lets the ticket be read once more.
  const admitted = await stack.system.call('POST', '/api/verify-ticket', {
    token: adminToken,
    body: { qrCodeData: readQrCode(buyer.qrCodeData) },
  });
  expect(admitted.body).toMatchObject({ success: true, userName: BUYER_NAME });
  const { body: inside } = await stack.system.call('GET', `/api/admin/tickets?eventId=${eventId}&checkedIn=true`, {
    token: adminToken,
  });
  const when = new Intl.DateTimeFormat('pt-BR', {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: 'America/Sao_Paulo',
  }).format(new Date(inside.tickets[0].checkedInAt));
  await page.reload();
  const bought = row(page, BUYER_NAME);
  await bought.getByText('Entrada registrada', { exact: true }).waitFor();
  await bought.getByText(when, { exact: true }).waitFor();
  await page.getByLabel('Entrada', { exact: true }).selectOption('true');
  await page.getByText('1 participante encontrado', { exact: true }).waitFor();

  await bought.getByRole('button', { name: `Resetar Ingresso de ${BUYER_NAME}` }).click();
  await toast(page, 'Ingresso resetado').waitFor();
  await page.getByText('Nenhum participante encontrado com esses filtros.', { exact: true }).waitFor();
  const readAgain = await stack.system.call('POST', '/api/verify-ticket', {
    token: adminToken,
    body: { qrCodeData: readQrCode(buyer.qrCodeData) },
  });
  expect(readAgain.body).toMatchObject({ success: true });
});

test('participants of a congress of two days: each day’s entrance, filtered by day and reset on its own', async () => {
  const { system } = stack;
  const congress = await congressOfTwoDays(system);
  const { day1, day2 } = congress;
  const person = await verifiedBuyer(system);
  const ticket = await paidTicket(system, person, congress.eventId);
  // The holder comes in on both days.
  for (const day of [day1, day2]) {
    const admitted = await system.call('POST', '/api/verify-ticket', {
      token: adminToken,
      body: { qrCodeData: ticket.qrText, eventId: congress.eventId, sessionId: day.id },
    });
    expect(admitted.body).toMatchObject({ success: true, sessionId: day.id });
  }
  const listed = async () => {
    const { body } = await system.call('GET', `/api/admin/tickets?eventId=${congress.eventId}`, { token: adminToken });
    return body.tickets[0].admissions as Record<string, string>;
  };
  const admissions = await listed();
  const time = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'short', timeZone: 'America/Sao_Paulo' });

  const page = await participantsPage(congress.eventId);
  const holder = row(page, person.name);
  // A column per day, with when the holder came in to it; the count of each day above.
  await page.getByRole('columnheader', { name: `Entrada — ${day1.label}`, exact: true }).waitFor();
  const columns = await page.getByRole('columnheader').allTextContents();
  expect(columns).toEqual(expect.arrayContaining([`Entrada — ${day1.label}`, `Entrada — ${day2.label}`]));
  expect(columns).not.toContain('Entrada');
  for (const day of [day1, day2]) {
    await holder
      .getByText(time.format(new Date(admissions[day.id]!)), { exact: true })
      .first()
      .waitFor();
    await page.getByText(`Entraram em ${day.label}`, { exact: true }).waitFor();
  }

  // Day 2's entrance is reset alone: day 1's stands.
  await holder.getByRole('button', { name: `Resetar Ingresso de ${person.name} em ${day2.label}` }).click();
  await toast(page, 'Ingresso resetado').waitFor();
  await holder.getByRole('button', { name: `Resetar Ingresso de ${person.name} em ${day2.label}` }).waitFor({
    state: 'detached',
  });
  await holder.getByRole('button', { name: `Resetar Ingresso de ${person.name} em ${day1.label}` }).waitFor();
  expect(Object.keys(await listed())).toEqual([day1.id]);

  // 'Entrada' about one day: in on day 1, not on day 2.
  await page.getByLabel('Entrada', { exact: true }).selectOption('true');
  await page.getByLabel('Sessão da entrada').selectOption(day2.id);
  await page.getByText('Nenhum participante encontrado com esses filtros.', { exact: true }).waitFor();
  await page.getByLabel('Sessão da entrada').selectOption(day1.id);
  await page.getByText('1 participante encontrado', { exact: true }).waitFor();
  await page.getByLabel('Entrada', { exact: true }).selectOption('false');
  await page.getByLabel('Sessão da entrada').selectOption(day2.id);
  await page.getByText('1 participante encontrado', { exact: true }).waitFor();
});

test('participants of an event of one session: one entrance column and no choice of session', async () => {
  const page = await participantsPage();
  await row(page, BUYER_NAME).waitFor();
  expect(await page.getByRole('columnheader', { name: 'Entrada', exact: true }).count()).toBe(1);
  expect(await page.getByLabel('Sessão da entrada').count()).toBe(0);
});

/** The guest's order number, as the redemptions report knows it once the order was paid. */
async function guestOrderNumber(): Promise<string> {
  return waitFor(async () => {
    const { body } = await stack.system.call('GET', `/api/courtesy-links/${guest.linkId}/redemptions?page=1`, {
      token: adminToken,
    });
    return body.redemptions[0]?.orderNumber;
  });
}

test('courtesy redemptions: from the link’s card to who redeemed it, and its spreadsheet', async () => {
  const orderNumber = await guestOrderNumber();
  const page = await (await stack.newContext({ token: adminToken })).newPage();
  await page.goto('/cortesia-admin');
  await page.getByRole('listitem').filter({ hasText: guest.code }).getByRole('link', { name: 'Ver resgates' }).click();
  await page.waitForURL((url) => url.pathname === `/cortesia-admin/${guest.linkId}/resgates`);
  await page.getByRole('heading', { name: 'Resgates do link de cortesia', level: 1 }).waitFor();
  const link = page.getByRole('region', { name: 'Link de cortesia' });
  await link.getByText(guest.code, { exact: true }).waitFor();
  await link.getByText(EVENT_TITLE, { exact: true }).waitFor();
  await link.getByText('1 de 2', { exact: true }).waitFor();

  const redeemed = row(page, GUEST_NAME);
  await redeemed.getByRole('cell', { name: guest.email, exact: true }).waitFor();
  await redeemed.getByRole('cell', { name: maskCpf(guest.cpf)!, exact: true }).waitFor();
  await redeemed.getByRole('cell', { name: String(orderNumber), exact: true }).waitFor();
  await redeemed.getByText(/^\d{2}\/\d{2}\/\d{4}\D+\d{2}:\d{2}$/).waitFor();

  const { fileName, rows } = await exportedCsv(page);
  expect(fileName).toBe(`cortesia-${guest.code}-resgates.csv`);
  expect(rows[0]).toEqual(['Nome', 'E-mail', 'CPF', 'Pedido', 'Resgatado em']);
  expect(rows.slice(1)).toEqual([
    [
      `'${GUEST_NAME}`,
      guest.email,
      expect.any(String),
      String(orderNumber),
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
    ],
  ]);
  expect(rows[1]![2]!.replace(/\D/g, '')).toBe(guest.cpf.replace(/\D/g, ''));
});
