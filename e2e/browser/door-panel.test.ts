import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, staffMember, verifiedBuyer } from '../../scripts/lib/system.ts';
import { launchCameraBrowser, qrVideo } from '../../scripts/lib/fake-camera.ts';
import { congressOfTwoDays, startBrowserStack, type BrowserStack } from './support.ts';

const EVENT_TITLE = 'Congresso de Farmácia Clínica e Hospitalar';
/** The guest whose QR code will not scan: found by CPF at the door. */
const LOOKED_UP = 'Rafael Nogueira Duarte';
const PHONE = { width: 390, height: 844 };

let stack: BrowserStack;
let dir: string;
let video: string;
let eventId: string;
let adminToken: string;
/** The guest the camera admits. */
let scanned: { name: string; orderId: string };
let lookedUp: { cpf: string; orderId: string };

/** Buys a ticket for the event as `buyer` and waits for it to be issued (the paid order carries its QR image). */
async function paidTicket(token: string, event = eventId): Promise<{ orderId: string; qrCodeData: string }> {
  const { system } = stack;
  const bought = await system.call('POST', '/api/orders', { token, body: { eventId: event, paymentMethod: 'pix' } });
  const orderId: string = bought.body.order.id;
  system.sandbox.confirm(bought.body.order.asaasPaymentId);
  const qrCodeData: string = await waitFor(async () => {
    const { body } = await system.call('GET', '/api/orders?page=1', { token });
    return body.orders.find((order: { id: string }) => order.id === orderId)?.qrCodeData;
  });
  return { orderId, qrCodeData };
}

beforeAll(async () => {
  stack = await startBrowserStack();
  const { system } = stack;
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT_TITLE, maxAttendees: 20 }));

  const first = await verifiedBuyer(system);
  const firstTicket = await paidTicket(first.token);
  scanned = { name: first.name, orderId: firstTicket.orderId };
  dir = await mkdtemp(join(tmpdir(), 'painel-'));
  video = await qrVideo(Buffer.from(firstTicket.qrCodeData.replace(/^data:image\/png;base64,/, ''), 'base64'), dir);

  const second = await verifiedBuyer(system);
  const renamed = await system.call('PUT', '/api/profile', {
    token: second.token,
    body: { name: LOOKED_UP, currentPassword: second.password },
  });
  if (renamed.status !== 200) throw new Error(`profile not renamed: ${JSON.stringify(renamed.body)}`);
  lookedUp = { cpf: second.cpf, orderId: (await paidTicket(second.token)).orderId };
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * How the door recorded the order's ticket (the tickets service's own tables) in the session `sessionId` (else in
 * any): when it was let in, and how often.
 */
async function admissionOf(orderId: string, sessionId?: string): Promise<{ usedAt: Date | null; admissions: number }> {
  const schema = stack.system.ticketsSchema;
  const session = sessionId ?? null;
  const { rows } = await stack.system.orders.db.raw(
    `select (select min((a.value->>'at')::timestamptz) from jsonb_each(t.admissions) a
             where ?::text is null or a.key = ?) as used_at,
       (select count(*) from "${schema}".scans s where s.ticket_id = t.id and s.code = 'valid'
          and (?::uuid is null or s.session_id = ?::uuid)) as admissions
     from "${schema}".tickets t where t.order_id = ?`,
    [session, session, session, session, orderId],
  );
  if (rows.length === 0) throw new Error(`no ticket for order ${orderId}`);
  return { usedAt: rows[0].used_at, admissions: Number(rows[0].admissions) };
}

/** The scanner at /verificar, checking in this test's event (chosen under 'Opções da leitura'). */
async function openDoor(page: Page, event = eventId) {
  await page.goto('/verificar');
  await page.getByRole('heading', { name: 'Verificar Ingresso', level: 1 }).waitFor();
  const choice = page.getByLabel('Evento desta entrada');
  // Once the door's events have arrived: the options fold away as soon as one is chosen by default.
  await choice.locator(`option[value="${event}"]`).waitFor({ state: 'attached' });
  if (!(await choice.isVisible())) await page.getByText('Opções da leitura', { exact: true }).click();
  await choice.selectOption(event);
}

/** A page of the stack's browser (no camera), logged in as the admin, phone-sized. */
async function adminPhone() {
  const page = await (await stack.newContext({ token: adminToken })).newPage();
  await page.setViewportSize(PHONE);
  return page;
}

test('the door panel and the scanner’s counter follow an admission at the door within 2 s', async () => {
  // The admin's panel, opened from the account menu on a laptop.
  const panel = await (await stack.newContext({ token: adminToken })).newPage();
  await panel.goto('/');
  await panel
    .getByRole('banner')
    .getByRole('button', { name: /^Menu da conta de / })
    .click();
  await panel.getByRole('menuitem', { name: 'Painel da Portaria' }).click();
  await panel.getByRole('heading', { name: 'Painel da Portaria', level: 1 }).waitFor();
  await panel.getByRole('combobox', { name: 'Evento', exact: true }).selectOption(eventId);
  const totals = panel.getByRole('region', { name: 'Entradas' });
  await totals.getByText('Entraram 0 de 2', { exact: true }).waitFor();
  await totals.getByRole('status').getByText('ao vivo').waitFor();
  await panel.getByRole('region', { name: 'Por dispositivo' }).getByText('Nenhuma entrada registrada ainda.').waitFor();

  // A second phone at the door, whose camera cannot be used: its one-line counter still follows the door.
  const phone = await adminPhone();
  await openDoor(phone);
  const compact = phone.getByRole('region', { name: 'Entradas do evento' });
  await compact.getByText('Entraram 0 de 2', { exact: true }).waitFor();
  await compact.getByRole('status').getByText('ao vivo').waitFor();

  const camera = await launchCameraBrowser(stack.system.gatewayUrl, video);
  try {
    const door = await camera.newPage(adminToken);
    await openDoor(door);
    // The admission as stored (its overlay shows for 800 ms only, too briefly to wait for on a busy machine).
    await waitFor(async () => (await admissionOf(scanned.orderId)).usedAt, {
      timeoutMs: 20_000,
      intervalMs: 10,
      maxIntervalMs: 50,
    });

    await Promise.all([
      totals.getByText('Entraram 1 de 2', { exact: true }).waitFor({ timeout: 2_000 }),
      compact.getByText('Entraram 1 de 2', { exact: true }).waitFor({ timeout: 2_000 }),
    ]);
    // The admitting device is listed with its staff member's name and its count.
    const devices = panel.getByRole('region', { name: 'Por dispositivo' }).getByRole('listitem');
    await devices.filter({ hasText: 'Administrador' }).first().waitFor();
    expect(await devices.count()).toBe(1);
    expect(await devices.first().innerText()).toMatch(/1\s*entrada/);
    // The per-minute chart's figures, as screen readers get them: one arrival in the last 30 minutes.
    const perMinute = panel.getByRole('table', { name: 'Chegadas por minuto nos últimos 30 minutos' });
    const counts = (await perMinute.getByRole('cell').allInnerTexts()).map(Number);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect((await admissionOf(scanned.orderId)).admissions).toBe(1);
  } finally {
    // Their live streams go: a user may hold only a few at once.
    await Promise.all([camera.close(), panel.context().close(), phone.context().close()]);
  }
}, 90_000);

test('a refused live stream neither logs the panel out nor stops it: it says so and comes back live', async () => {
  const page = await (await stack.newContext({ token: adminToken })).newPage();
  const LIVE = /\/api\/door\/events\/[^/]+\/live(\?|$)/;
  let refused = 0;
  await page.route(LIVE, async (route) => {
    refused += 1;
    await route.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"Sessão expirada"}' });
  });
  await page.goto(`/painel-porta?evento=${eventId}`);
  const totals = page.getByRole('region', { name: 'Entradas' });
  await totals.getByRole('status').getByText('reconectando…').waitFor();
  // Asked again after a wait, still on the panel and still logged in.
  await waitFor(() => refused >= 2);
  expect(new URL(page.url()).pathname).toBe('/painel-porta');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(adminToken);

  await page.unroute(LIVE);
  await totals.getByRole('status').getByText('ao vivo').waitFor();
  await totals.getByText(/^Entraram \d+ de 2$/).waitFor();
  await page.context().close();
});

test('a guest whose QR code will not scan is found by CPF and admitted from the look-up; an admin resets it', async () => {
  const page = await adminPhone();
  await openDoor(page);
  await page.getByRole('button', { name: 'Buscar participante' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buscar participante' });
  const search = dialog.getByLabel('Nome, CPF, e-mail ou código do pedido');
  await search.fill(lookedUp.cpf);

  const guest = dialog.getByRole('list', { name: 'Participantes encontrados' }).getByRole('listitem');
  await guest.filter({ hasText: LOOKED_UP }).waitFor();
  expect(await guest.count()).toBe(1);
  const shown = await guest.innerText();
  expect(shown).toContain('Não entrou');
  // The CPF is shown masked: never all of its digits.
  expect(shown.replace(/\D/g, '')).not.toContain(lookedUp.cpf.replace(/\D/g, ''));
  await guest.getByRole('button', { name: `Admitir ${LOOKED_UP}` }).click();

  // The same verdict as a reading by the camera, over the whole screen.
  await page
    .getByRole('alert')
    .filter({ hasText: `✓ ${LOOKED_UP}` })
    .waitFor();
  expect(await dialog.count()).toBe(0);
  const admitted = await waitFor(async () => {
    const admission = await admissionOf(lookedUp.orderId);
    return admission.usedAt && admission;
  });
  expect(admitted.admissions).toBe(1);

  // Found again, the guest has come in; an admin lets the ticket in again.
  await page.getByRole('alert').filter({ hasText: LOOKED_UP }).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Buscar participante' }).click();
  await search.fill(lookedUp.cpf);
  await guest.getByText(/^Já entrou às \d{2}:\d{2}$/).waitFor();
  await guest.getByRole('button', { name: 'Resetar Ingresso' }).click();
  await guest.getByText('Não entrou', { exact: true }).waitFor();
  expect((await admissionOf(lookedUp.orderId)).usedAt).toBeNull();
  await page.context().close();
}, 60_000);

test('the flashlight toggle is offered only by a camera with a torch: the fake camera has none', async () => {
  const camera = await launchCameraBrowser(stack.system.gatewayUrl, video);
  try {
    const page = await camera.newPage(adminToken);
    await openDoor(page);
    // The torch is looked for as the camera starts, before the page says it is scanning.
    await page.getByText('Aponte a câmera para o QR Code do ingresso').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Lanterna' }).count()).toBe(0);
  } finally {
    await camera.close();
  }
}, 60_000);

test('door staff of the event look a guest up by whole CPF only and admit them by ticket, not by QR code', async () => {
  const staffer = await staffMember(stack.system, adminToken, ['doorStaff'], { doorEvents: [eventId] });
  const page = await (await stack.newContext({ token: staffer.token })).newPage();
  await page.setViewportSize(PHONE);
  const admissions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') admissions.push(new URL(request.url()).pathname);
  });
  await openDoor(page);
  await page.getByRole('button', { name: 'Buscar participante' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buscar participante' });
  const search = dialog.getByLabel('Nome, CPF, e-mail ou código do pedido');
  await dialog.getByText(/CPF completo \(11 dígitos\), e-mail completo/).waitFor();

  // Part of a CPF finds nobody: the masked answers would rebuild it.
  await search.fill(lookedUp.cpf.slice(0, 3));
  await dialog.getByText('Nenhum participante encontrado. CPF e e-mail precisam estar completos.').waitFor();
  await search.fill(lookedUp.cpf);
  const guest = dialog.getByRole('list', { name: 'Participantes encontrados' }).getByRole('listitem');
  await guest.filter({ hasText: LOOKED_UP }).getByText('Não entrou', { exact: true }).waitFor();
  // Door staff may admit, never reset.
  expect(await guest.getByRole('button', { name: 'Resetar Ingresso' }).count()).toBe(0);
  await guest.getByRole('button', { name: `Admitir ${LOOKED_UP}` }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: `✓ ${LOOKED_UP}` })
    .waitFor();
  await waitFor(async () => (await admissionOf(lookedUp.orderId)).usedAt !== null);
  expect(admissions.filter((path) => path.endsWith('/admit'))).toHaveLength(1);
  expect(admissions).not.toContain('/api/verify-ticket');
}, 60_000);

test('a congress of two days: the panel, the counter and the look-up follow the day chosen; a reset undoes that day only', async () => {
  const { system } = stack;
  const congress = await congressOfTwoDays(system);
  const { day1, day2 } = congress;
  const guest = await verifiedBuyer(system);
  const ticket = await paidTicket(guest.token, congress.eventId);
  // The guest came in on day 1.
  const admitted = await system.call('POST', '/api/verify-ticket', {
    token: adminToken,
    body: { qrCodeData: readQrCode(ticket.qrCodeData), eventId: congress.eventId, sessionId: day1.id },
  });
  expect(admitted.body).toMatchObject({ success: true, sessionId: day1.id });
  // The panel opens on day 1, whose door is open; each day's count below.
  const panel = await (await stack.newContext({ token: adminToken })).newPage();
  await panel.goto(`/painel-porta?evento=${congress.eventId}`);
  const totals = panel.getByRole('region', { name: 'Entradas' }).first();
  const session = panel.getByRole('combobox', { name: 'Sessão', exact: true });
  expect(await session.inputValue()).toBe(day1.id);
  await totals.getByText('Entraram 1 de 1', { exact: true }).waitFor();
  const perSession = panel.getByRole('region', { name: 'Por sessão' }).getByRole('listitem');
  await perSession.filter({ hasText: day1.label }).getByText('1 de 1', { exact: true }).waitFor();
  await perSession.filter({ hasText: day2.label }).getByText('0 de 1', { exact: true }).waitFor();
  // Day 2 followed: nobody in yet, and the choice stays in the address.
  await session.selectOption(day2.id);
  await totals.getByText('Entraram 0 de 1', { exact: true }).waitFor();
  await panel.getByRole('region', { name: 'Por dispositivo' }).getByText('Nenhuma entrada registrada ainda.').waitFor();
  expect(new URL(panel.url()).searchParams.get('sessao')).toBe(day2.id);

  // A phone at the door of day 2: the guest came in on day 1 only, so the look-up admits them.
  const phone = await adminPhone();
  await openDoor(phone, congress.eventId);
  await phone.getByLabel('Sessão desta entrada').selectOption(day2.id);
  const compact = phone.getByRole('region', { name: 'Entradas do evento' });
  await compact.getByText(`${day2.label}: Entraram 0 de 1`, { exact: true }).waitFor();
  await phone.getByRole('button', { name: 'Buscar participante' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Buscar participante' });
  await dialog.getByLabel('Nome, CPF, e-mail ou código do pedido').fill(guest.cpf);
  const found = dialog.getByRole('list', { name: 'Participantes encontrados' }).getByRole('listitem');
  await found.getByText('Não entrou', { exact: true }).waitFor();
  await found.getByRole('button', { name: /^Admitir / }).click();
  await phone.getByRole('alert').filter({ hasText: '✓' }).waitFor();
  await waitFor(async () => (await admissionOf(ticket.orderId, day2.id)).usedAt);

  // Both counters follow day 2; the device that admitted is listed for it.
  await Promise.all([
    totals.getByText('Entraram 1 de 1', { exact: true }).waitFor(),
    compact.getByText(`${day2.label}: Entraram 1 de 1`, { exact: true }).waitFor(),
    perSession.filter({ hasText: day2.label }).getByText('1 de 1', { exact: true }).waitFor(),
  ]);
  await panel.getByRole('region', { name: 'Por dispositivo' }).getByRole('listitem').first().waitFor();

  // Found again: in on day 2; the admin's reset lets them in to day 2 again, and day 1's entrance stands.
  await phone.getByRole('alert').filter({ hasText: '✓' }).waitFor({ state: 'detached' });
  await phone.getByRole('button', { name: 'Buscar participante' }).click();
  await dialog.getByLabel('Nome, CPF, e-mail ou código do pedido').fill(guest.cpf);
  await found.getByText(/^Já entrou às \d{2}:\d{2}$/).waitFor();
  await found.getByRole('button', { name: 'Resetar Ingresso' }).click();
  await found.getByText('Não entrou', { exact: true }).waitFor();
  expect((await admissionOf(ticket.orderId, day2.id)).usedAt).toBeNull();
  expect((await admissionOf(ticket.orderId, day1.id)).usedAt).not.toBeNull();
  await totals.getByText('Entraram 0 de 1', { exact: true }).waitFor();
  await Promise.all([panel.context().close(), phone.context().close()]);
}, 90_000);
