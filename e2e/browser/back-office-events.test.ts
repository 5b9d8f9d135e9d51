import { PNG } from 'pngjs';
import type { BrowserContext, Page } from 'playwright-core';
import type { AdminEventPage, AdminEventView } from '@ticketing/proto';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, staffMember, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

const SOLD_TITLE = 'Curso de Farmacoeconomia Aplicada';
const CAPACITY_REFUSAL = 'A capacidade não pode ser menor que os 2 ingressos já vendidos ou reservados';

let stack: BrowserStack;
let soldEventId: string;
let adminToken: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  ({ eventId: soldEventId, adminToken } = await adminEvent(stack.system, { title: SOLD_TITLE, maxAttendees: 10 }));
}, 180_000);
afterAll(() => stack?.stop());

/** The little of the browser the checks read inside the page (the test code is typed without the DOM). */
interface BrowserDocument {
  document: { activeElement: unknown };
}
const isFocused = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((element) => {
    return element === (globalThis as unknown as BrowserDocument).document.activeElement;
  });

/** A real PNG of 32×18 pixels of one colour. */
function png(): Buffer {
  const image = new PNG({ width: 32, height: 18 });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([11, 85, 99, 255], i);
  return PNG.sync.write(image);
}

const main = (page: Page) => page.getByRole('main');
const toast = (page: Page, title: string) => page.locator('.toast').filter({ hasText: title });
const heading = (page: Page, name: string) => main(page).getByRole('heading', { level: 1, name, exact: true });
const brl = (text: string) => text.replaceAll('R$ ', 'R$\u00a0');
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The fields of the form's `position`th session. */
const session = (page: Page, position: number) => page.getByRole('group', { name: `Sessão ${position}`, exact: true });

async function adminPage(): Promise<Page> {
  const context = await stack.newContext({ token: adminToken });
  return context.newPage();
}

async function adminSearch(q: string): Promise<AdminEventView[]> {
  const { body } = await stack.system.call('GET', `/api/admin/events?q=${encodeURIComponent(q)}`, {
    token: adminToken,
  });
  return (body as AdminEventPage).events;
}

test('an admin creates and publishes an event with its image, and the storefront shows both', async () => {
  const title = 'Congresso de Farmácia Oncológica';
  const page = await adminPage();
  await page.goto('/admin/eventos');
  await heading(page, 'Gerenciar Eventos').waitFor();
  await page.getByRole('navigation', { name: 'Gestão' }).getByRole('link', { name: 'Eventos' }).waitFor();
  await main(page).getByRole('link', { name: 'Novo evento' }).click();
  await page.waitForURL((url) => url.pathname === '/admin/eventos/novo');
  await heading(page, 'Novo evento').waitFor();

  // Nothing filled: the API's own messages, on the fields, and the first one takes the focus.
  const create = page.getByRole('button', { name: 'Criar evento' });
  await create.click();
  await page.getByText('Título é obrigatório', { exact: true }).waitFor();
  await page.getByText('Início da sessão inválido: informe data e hora', { exact: true }).waitFor();
  await page.getByText('Local é obrigatório', { exact: true }).waitFor();
  expect(await page.getByLabel('Título', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  expect(await isFocused(page, 'Título')).toBe(true);

  await page.getByLabel('Título', { exact: true }).fill(title);
  await page.getByLabel('Descrição').fill('Dois dias de atualização em terapia antineoplásica.');
  await session(page, 1).getByLabel('Início').fill('2031-05-20T19:30');
  await session(page, 1).getByLabel('Fim').fill('2031-05-20T23:00');
  await page.getByLabel('Local', { exact: true }).fill('Centro de Convenções Rebouças — São Paulo, SP');
  await page.getByLabel('Preço (R$)').fill('180,50');
  await page.getByLabel('Capacidade').fill('40');
  await page.getByRole('checkbox', { name: /^Publicado/ }).check();

  // A file that is not an image is refused before anything is sent; the PNG is previewed.
  const image = page.getByLabel('Imagem do evento');
  await image.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('não é imagem') });
  await page.getByText('Formato de imagem não aceito: envie JPEG, PNG ou WebP', { exact: true }).waitFor();
  const content = png();
  await image.setInputFiles({ name: 'congresso.png', mimeType: 'image/png', buffer: content });
  const preview = page.getByRole('img', { name: 'Pré-visualização da nova imagem' });
  expect(await preview.getAttribute('src')).toMatch(/^blob:/);

  await create.click();
  await toast(page, 'Evento criado').waitFor();
  await page.waitForURL((url) => new RegExp(`^/admin/eventos/${UUID}$`).test(url.pathname));
  await heading(page, 'Editar evento').waitFor();
  const [stored] = await adminSearch(title);
  expect(stored).toMatchObject({
    title,
    date: '2031-05-20T22:30:00.000Z',
    localDate: '2031-05-20T19:30',
    price: '180.50',
    maxAttendees: 40,
    status: 'publicado',
    listed: true,
  });
  expect(stored!.imageUrl).toMatch(/^\/api\/events\/images\/[0-9a-f]{64}$/);
  expect(new URL(page.url()).pathname).toBe(`/admin/eventos/${stored!.id}`);
  await main(page).getByText('Publicado', { exact: true }).waitFor();
  expect(await page.getByRole('img', { name: 'Imagem atual do evento' }).getAttribute('src')).toBe(stored!.imageUrl);
  const served = await fetch(stack.system.gatewayUrl + stored!.imageUrl);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await served.arrayBuffer()).equals(content)).toBe(true);

  // A visitor finds it in the events list and on its page, with the uploaded image.
  const visitor = await (await stack.newContext()).newPage();
  await visitor.goto('/eventos');
  const card = main(visitor).getByRole('article').filter({ hasText: title });
  await card.getByText(brl('R$ 180,50')).waitFor();
  expect(await card.locator('img').getAttribute('src')).toBe(stored!.imageUrl);
  await card.getByRole('link', { name: title }).click();
  await heading(visitor, title).waitFor();
  expect(new URL(visitor.url()).pathname).toBe(`/event/${stored!.id}`);
  expect(await main(visitor).locator('img').first().getAttribute('src')).toBe(stored!.imageUrl);
  await main(visitor).getByText('Centro de Convenções Rebouças — São Paulo, SP').first().waitFor();
}, 60_000);

test('an admin creates a congress of two days, checked before sending, then edits a day keeping its session', async () => {
  const title = 'Congresso de Farmácia Hospitalar';
  const page = await adminPage();
  await page.goto('/admin/eventos/novo');
  await heading(page, 'Novo evento').waitFor();
  await page.getByLabel('Título', { exact: true }).fill(title);
  await page.getByLabel('Local', { exact: true }).fill('Expo Center Norte — São Paulo, SP');
  await page.getByLabel('Preço (R$)').fill('900,00');
  expect(await page.getByRole('button', { name: 'Remover sessão 1' }).isDisabled()).toBe(true);
  await session(page, 1).getByLabel('Início').fill('2031-11-06T08:00');
  await session(page, 1).getByLabel('Fim').fill('2031-11-06T18:00');
  await session(page, 1).getByLabel('Título da sessão (opcional)').fill('Dia 1');

  // A new session starts as the next day at the same hours.
  await page.getByRole('button', { name: 'Adicionar sessão' }).click();
  expect(await session(page, 2).getByLabel('Início').inputValue()).toBe('2031-11-07T08:00');
  expect(await session(page, 2).getByLabel('Fim').inputValue()).toBe('2031-11-07T18:00');
  await session(page, 2).getByLabel('Título da sessão (opcional)').fill('Dia 2');

  // Overlapping sessions are refused before anything is sent, with the catalog's message.
  await session(page, 2).getByLabel('Início').fill('2031-11-06T17:00');
  const create = page.getByRole('button', { name: 'Criar evento' });
  await create.click();
  await main(page).getByRole('alert').filter({ hasText: 'As sessões não podem se sobrepor' }).waitFor();
  expect(await adminSearch(title)).toEqual([]);

  await session(page, 2).getByLabel('Início').fill('2031-11-07T08:00');
  await create.click();
  await toast(page, 'Evento criado').waitFor();
  await heading(page, 'Editar evento').waitFor();
  const [created] = await adminSearch(title);
  expect(created).toMatchObject({ date: '2031-11-06T11:00:00.000Z', localDate: '2031-11-06T08:00' });
  expect(created!.localSessions).toEqual([
    { id: expect.any(String), startsAt: '2031-11-06T08:00', endsAt: '2031-11-06T18:00', title: 'Dia 1' },
    { id: expect.any(String), startsAt: '2031-11-07T08:00', endsAt: '2031-11-07T18:00', title: 'Dia 2' },
  ]);

  // The second day ends earlier and the first is removed: the second keeps its session (and its admissions).
  await session(page, 2).getByLabel('Fim').fill('2031-11-07T12:30');
  await page.getByRole('button', { name: 'Remover sessão 1' }).click();
  expect(await session(page, 1).getByLabel('Título da sessão (opcional)').inputValue()).toBe('Dia 2');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await toast(page, 'Evento salvo').waitFor();
  const [edited] = await adminSearch(title);
  expect(edited!.localSessions).toEqual([
    { id: created!.localSessions[1]!.id, startsAt: '2031-11-07T08:00', endsAt: '2031-11-07T12:30', title: 'Dia 2' },
  ]);
  expect(edited!.date).toBe('2031-11-07T11:00:00.000Z');
}, 60_000);

test('the list searches, filters by status and duplicates an event into a draft opened in the editor', async () => {
  const title = 'Jornada de Assistência Farmacêutica';
  const made = await stack.system.call('POST', '/api/admin/events', {
    token: adminToken,
    body: {
      title,
      date: '2031-08-04T08:00',
      location: 'Recife – PE',
      price: '95.00',
      maxAttendees: 25,
      published: true,
    },
  });
  expect(made.status).toBe(201);
  const page = await adminPage();
  await page.goto('/admin/eventos');
  await main(page).getByLabel('Buscar', { exact: true }).fill('jornada assistencia');
  const row = main(page).getByRole('row').filter({ hasText: title });
  await row.getByText('04/08/2031, 08:00', { exact: true }).waitFor();
  await row.getByText(brl('R$ 95,00'), { exact: true }).waitFor();
  await row.getByText('0 vendidos · 0 reservados · capacidade 25', { exact: true }).waitFor();
  await row.getByText('Publicado', { exact: true }).waitFor();
  // The heading row and this event's: the search has reached the server.
  await waitFor(async () => (await main(page).getByRole('row').count()) === 2);
  expect(await row.getByRole('link', { name: 'Participantes' }).getAttribute('href')).toBe(
    `/admin/eventos/${made.body.id}/participantes`,
  );

  await main(page).getByLabel('Situação').selectOption({ label: 'Rascunho' });
  await main(page).getByText('Nenhum evento encontrado para esta busca.', { exact: true }).waitFor();
  await main(page).getByLabel('Situação').selectOption({ label: 'Publicado' });
  await row.waitFor();

  await row.getByRole('button', { name: 'Duplicar' }).click();
  await toast(page, 'Evento duplicado').waitFor();
  await page.waitForURL(
    (url) => url.pathname.startsWith('/admin/eventos/') && url.pathname !== `/admin/eventos/${made.body.id}`,
  );
  await heading(page, 'Editar evento').waitFor();
  expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(`Cópia de ${title}`);
  expect(await session(page, 1).getByLabel('Início').inputValue()).toBe('2031-08-04T08:00');
  expect(await page.getByRole('checkbox', { name: /^Publicado/ }).isChecked()).toBe(false);
  await main(page).getByText('Rascunho', { exact: true }).waitFor();
  const copyId = new URL(page.url()).pathname.split('/').at(-1);
  expect((await adminSearch(`Cópia de ${title}`)).map((event) => [event.id, event.status])).toEqual([
    [copyId, 'rascunho'],
  ]);
});

test('a capacity below the tickets already sold is refused in pt-BR and the stored capacity stays', async () => {
  // Two paid orders, one after the other (a buyer's pending order for the event is answered again, not doubled).
  const buyer = await verifiedBuyer(stack.system);
  for (const sold of [1, 2]) {
    const bought = await stack.system.call('POST', '/api/orders', {
      token: buyer.token,
      body: { eventId: soldEventId, paymentMethod: 'pix' },
    });
    expect(bought.status).toBe(201);
    stack.system.sandbox.confirm(bought.body.order.asaasPaymentId);
    await waitFor(async () => {
      const { body } = await stack.system.call('GET', `/api/admin/events/${soldEventId}`, { token: adminToken });
      return body.sold === sold;
    });
  }

  const page = await adminPage();
  await page.goto(`/admin/eventos/${soldEventId}`);
  await heading(page, 'Editar evento').waitFor();
  const summary = main(page).getByRole('region', { name: 'Resumo do evento' });
  expect(await summary.locator('dd').allInnerTexts()).toEqual(['2', '0', '10']);
  expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(SOLD_TITLE);

  await page.getByLabel('Capacidade').fill('1');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  const refusal = main(page).getByRole('alert').filter({ hasText: CAPACITY_REFUSAL });
  await refusal.waitFor();
  expect(
    await refusal.evaluate((element) => element === (globalThis as unknown as BrowserDocument).document.activeElement),
  ).toBe(true);
  expect(await stack.system.catalog.db('events').where({ id: soldEventId }).first()).toMatchObject({
    max_attendees: 10,
    current_attendees: 2,
  });

  await page.getByLabel('Capacidade').fill('12');
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await toast(page, 'Evento salvo').waitFor();
  await refusal.waitFor({ state: 'detached' });
  expect(await stack.system.catalog.db('events').where({ id: soldEventId }).first()).toMatchObject({
    max_attendees: 12,
    title: SOLD_TITLE,
  });
}, 60_000);

test('an admin cancels an event from its editor with a reason; it shows Cancelado and leaves the storefront', async () => {
  const title = 'Encontro de Farmácia Hospitalar';
  const kept = 'Encontro de Farmácia Magistral';
  const reason = 'O centro de convenções foi interditado pela Defesa Civil.';
  const ids: Record<string, string> = {};
  for (const name of [title, kept]) {
    const made = await stack.system.call('POST', '/api/admin/events', {
      token: adminToken,
      body: { title: name, date: '2031-10-06T09:00', location: 'Campinas – SP', price: '80.00', published: true },
    });
    expect(made.status).toBe(201);
    ids[name] = made.body.id as string;
  }
  const card = (page: Page, name: string) => main(page).getByRole('article').filter({ hasText: name });
  const before = await (await stack.newContext()).newPage();
  await before.goto('/eventos');
  await card(before, title).waitFor();

  const page = await adminPage();
  await page.goto(`/admin/eventos/${ids[title]}`);
  await heading(page, 'Editar evento').waitFor();
  await main(page).getByRole('button', { name: 'Cancelar evento' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancelar ${title}?` });
  await dialog
    .getByText(
      'Todos os pedidos pagos serão reembolsados e os participantes receberão um e-mail. Esta ação não pode ser desfeita.',
      { exact: true },
    )
    .waitFor();
  // The reason is required before anything is sent.
  await dialog.getByRole('button', { name: 'Cancelar evento' }).click();
  await dialog.getByText('O motivo do cancelamento deve ter entre 3 e 500 caracteres.', { exact: true }).waitFor();
  expect((await stack.system.catalog.db('events').where({ id: ids[title] }).first()).cancelled_at).toBeNull();

  await dialog.getByLabel('Motivo do cancelamento').fill(reason);
  await dialog.getByRole('button', { name: 'Cancelar evento' }).click();
  await toast(page, 'Evento cancelado')
    .getByText('Evento cancelado. Os pedidos pagos serão reembolsados e os participantes avisados por e-mail')
    .waitFor();
  await dialog.waitFor({ state: 'detached' });
  const summary = main(page).getByRole('region', { name: 'Resumo do evento' });
  await summary.getByText('Cancelado', { exact: true }).waitFor();
  await summary.getByText(`Motivo: ${reason}`, { exact: false }).waitFor();
  expect(await main(page).getByRole('button', { name: 'Cancelar evento' }).count()).toBe(0);
  expect(await main(page).getByRole('button', { name: 'Salvar alterações' }).count()).toBe(0);
  expect(await page.getByLabel('Título', { exact: true }).isDisabled()).toBe(true);
  expect(await stack.system.catalog.db('events').where({ id: ids[title] }).first()).toMatchObject({
    cancel_reason: reason,
  });

  // The list's status filter finds it.
  await page.goto('/admin/eventos');
  await main(page).getByLabel('Buscar', { exact: true }).fill('encontro farmacia');
  await main(page).getByLabel('Situação').selectOption({ label: 'Cancelado' });
  await main(page).getByRole('row').filter({ hasText: title }).getByText('Cancelado', { exact: true }).waitFor();
  await waitFor(async () => (await main(page).getByRole('row').filter({ hasText: kept }).count()) === 0);

  // A visitor no longer finds it in the events list, where the other event still is.
  const visitor = await (await stack.newContext()).newPage();
  await visitor.goto('/eventos');
  await card(visitor, kept).waitFor();
  expect(await card(visitor, title).count()).toBe(0);
}, 60_000);

test('buyers and door staff are turned away from the back office’s events', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const staff = await staffMember(stack.system, adminToken, ['doorStaff']);
  for (const token of [buyer.token, staff.token]) {
    const context: BrowserContext = await stack.newContext({ token });
    for (const route of ['/admin/eventos', '/admin/eventos/novo', `/admin/eventos/${soldEventId}`]) {
      const page = await context.newPage();
      await page.goto(route);
      await toast(page, 'Acesso negado').getByText('Apenas administradores podem acessar esta página').waitFor();
      await page.waitForURL((url) => url.pathname === '/');
      expect(await page.getByRole('heading', { name: 'Gerenciar Eventos' }).count()).toBe(0);
      await page.close();
    }
  }
}, 120_000);

test("'Equipe de portaria': an admin adds door staff by e-mail, is told when it is no verified account, and removes them", async () => {
  const { eventId } = await adminEvent(stack.system, { title: 'Oficina de Farmácia Magistral' });
  const staffer = await verifiedBuyer(stack.system);
  const page = await adminPage();
  await page.goto(`/admin/eventos/${eventId}`);
  const section = page.getByRole('region', { name: 'Equipe de portaria' });
  await section.getByText('Ninguém escalado ainda: só administradores podem abrir esta portaria.').waitFor();
  const email = section.getByLabel('E-mail de quem vai trabalhar na portaria');
  const add = section.getByRole('button', { name: 'Adicionar' });

  // No verified account with that address: said on the field, nobody added.
  await email.fill('ninguem.aqui@example.com.br');
  await add.click();
  await section.getByText('Não há conta com e-mail verificado para ninguem.aqui@example.com.br').waitFor();
  expect(await email.getAttribute('aria-invalid')).toBe('true');

  await email.fill(staffer.email);
  await add.click();
  const people = section.getByRole('list', { name: 'Pessoas escaladas' }).getByRole('listitem');
  await people.filter({ hasText: staffer.email }).waitFor();
  await toast(page, 'Equipe de portaria atualizada').waitFor();
  expect(await email.inputValue()).toBe('');
  // The door hears it: the staffer, signed in again with the door role, finds the event at the door.
  const login = await stack.system.call('POST', '/api/auth/login', {
    body: { email: staffer.email, password: staffer.password },
  });
  const doorEvents = async () =>
    ((await stack.system.call('GET', '/api/door/events', { token: login.body.token })).body as { id: string }[]).map(
      (event) => event.id,
    );
  await waitFor(async () => (await doorEvents()).includes(eventId));

  // Reloaded, the list is the server's; removed, the event leaves the staffer's door.
  await page.reload();
  await people.filter({ hasText: staffer.email }).waitFor();
  await section.getByRole('button', { name: `Remover ${staffer.name} da equipe` }).click();
  await section.getByText('Ninguém escalado ainda: só administradores podem abrir esta portaria.').waitFor();
  await waitFor(async () => !(await doorEvents()).includes(eventId));
}, 60_000);
