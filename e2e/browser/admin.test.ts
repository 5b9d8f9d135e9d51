import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, staffMember, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

const EVENT_TITLE = 'Simpósio de Farmácia Hospitalar';
const INVITATION = `Você recebeu uma cortesia: ${EVENT_TITLE}`;
const ADMIN_ROUTES = ['/verificar', '/cortesia-admin', '/cortesia-envio-em-massa'];
const today = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(
  new Date(),
);

let stack: BrowserStack;
let eventId: string;
let adminToken: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  ({ eventId, adminToken } = await adminEvent(stack.system, { title: EVENT_TITLE, maxAttendees: 200 }));
}, 180_000);
afterAll(() => stack?.stop());

/** The little of the browser the checks read inside the page (the test code is typed without the DOM). */
interface BrowserWindow {
  navigator: { clipboard: { readText(): Promise<string> } };
  getComputedStyle(element: unknown): { color: string };
}

/** A page that records the paths it requests. */
async function open(context: BrowserContext) {
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  return { page, requested };
}

/** The toast on screen with `title` (the shell shows one at a time). */
const toast = (page: Page, title: string) => page.locator('.toast').filter({ hasText: title });

/** The list item of the link with `code`. */
const linkCard = (page: Page, code: string) => page.getByRole('listitem').filter({ hasText: code });

async function newestLinks(): Promise<{ id: string; code: string; redeemUrl: string }[]> {
  const { body } = await stack.system.call('GET', '/api/courtesy-links?page=1', { token: adminToken });
  return body.links;
}

test('visitors and users who are not admins are turned away from every admin page before its code downloads', async () => {
  const buyer = await verifiedBuyer(stack.system);
  // A buyer is told the role each page needs.
  const needs: Record<string, string> = {
    '/verificar': 'Apenas a equipe de portaria pode acessar esta página',
    '/cortesia-admin': 'Apenas quem gerencia cortesias pode acessar esta página',
    '/cortesia-envio-em-massa': 'Apenas quem gerencia cortesias pode acessar esta página',
  };
  for (const [who, token, destination] of [
    ['visitor', undefined, '/login'],
    ['buyer', buyer.token, '/'],
  ] as const) {
    const context = await stack.newContext({ token });
    for (const route of ADMIN_ROUTES) {
      const { page, requested } = await open(context);
      await page.goto(route);
      const message = who === 'visitor' ? 'Você precisa fazer login para acessar esta página' : needs[route]!;
      await page.getByText(message, { exact: true }).waitFor();
      await page.getByText('Acesso negado', { exact: true }).waitFor();
      await page.waitForURL((url) => url.pathname === destination);
      // Neither the back office's code nor the door's.
      const code = requested.filter((path) => /^\/(admin|door)\//.test(path));
      expect({ who, route, code }).toEqual({ who, route, code: [] });
      await page.close();
    }
  }
}, 60_000);

test('door staff see only the scanner in the admin area', async () => {
  const staff = await staffMember(stack.system, adminToken, ['doorStaff']);
  const { page } = await open(await stack.newContext({ token: staff.token }));
  await page.goto('/verificar');

  await page.getByRole('heading', { name: 'Verificar Ingresso', level: 1 }).waitFor();
  const header = page.getByRole('banner');
  expect(await header.getByRole('navigation', { name: 'Principal' }).getByRole('link').allInnerTexts()).toEqual([
    'Eventos',
    'Resgate de cortesia',
    'Área de acesso',
    'Verificar QR',
  ]);
  expect(await header.getByText('ADMIN', { exact: true }).count()).toBe(0);
  for (const route of ['/cortesia-admin', '/cortesia-envio-em-massa']) {
    await page.goto(route);
    await toast(page, 'Acesso negado').getByText('Apenas quem gerencia cortesias pode acessar esta página').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
  }
});

test('an administrator without the courtesy role is told, on the page and by the API, which role it needs', async () => {
  // A buyer made administrator (development tool), logged in again so the session says so.
  const person = await verifiedBuyer(stack.system);
  const self = await stack.system.call('GET', '/api/auth/me', { token: person.token });
  await stack.system.call('POST', `/api/make-admin/${self.body.id}`, { token: person.token });
  const login = await stack.system.call('POST', '/api/auth/login', {
    body: { email: person.email, password: person.password },
  });
  expect(login.body.user).toMatchObject({ isAdmin: true });
  const token = login.body.token as string;

  const refused = await stack.system.call('GET', '/api/courtesy-links?page=1', { token });
  expect(refused).toEqual({ status: 403, body: { message: 'Acesso restrito a quem gerencia cortesias' } });
  const { page } = await open(await stack.newContext({ token }));
  for (const route of ['/cortesia-admin', '/cortesia-envio-em-massa']) {
    await page.goto(route);
    await toast(page, 'Acesso negado').getByText('Apenas quem gerencia cortesias pode acessar esta página').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
  }
  // The back office is theirs.
  await page.goto('/admin/eventos');
  await page.getByRole('heading', { name: 'Gerenciar Eventos' }).waitFor();
});

test('links: the empty list, then a free and a promotional link with their badge, count, date and copy button', async () => {
  const context = await stack.newContext({ token: adminToken });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { page } = await open(context);
  await page.goto('/cortesia-admin');
  await page.getByRole('heading', { name: 'Gerenciar Links de Cortesia', level: 1 }).waitFor();
  // Nothing in this system has made a link yet.
  await page.getByText('Nenhum link de cortesia criado ainda', { exact: true }).waitFor();

  const form = page.getByRole('region', { name: 'Criar novo link' });
  const create = form.getByRole('button', { name: 'Criar link' });
  await create.click();
  await toast(page, 'Selecione um evento')
    .getByText('Por favor, selecione um evento para o link de cortesia', { exact: true })
    .waitFor();
  await form.getByRole('alert').getByText('Por favor, selecione um evento para o link de cortesia').waitFor();

  await form.getByLabel('Evento').selectOption(eventId);
  // The event's first type is chosen once its types are in.
  const type = form.getByLabel('Tipo de ingresso');
  await waitFor(async () => (await type.locator('option:checked').innerText()) === 'Ingresso');
  await form.getByLabel('Quantidade de ingressos').fill('3');
  await create.click();
  await page.getByText('Link criado com sucesso!', { exact: true }).waitFor();
  await page.getByText('O link de cortesia foi gerado e está pronto para uso.', { exact: true }).waitFor();
  const [free] = await newestLinks();
  const freeCard = linkCard(page, free!.code);
  await freeCard.getByText('Cortesia (Grátis)', { exact: true }).waitFor();
  await freeCard.getByText('Ingresso', { exact: true }).waitFor();
  await freeCard.getByText('3 de 3 disponíveis', { exact: true }).waitFor();
  await freeCard.getByText(today, { exact: true }).waitFor();
  expect(await freeCard.getByRole('heading').innerText()).toBe(EVENT_TITLE);
  // The form starts over.
  expect(await form.getByLabel('Evento').inputValue()).toBe('');
  expect(await form.getByLabel('Quantidade de ingressos').inputValue()).toBe('1');

  await form.getByLabel('Evento').selectOption(eventId);
  await form.getByLabel('Quantidade de ingressos').fill('2');
  await form.getByLabel('Preço promocional (opcional)').fill('49,90');
  await create.click();
  // The list is read once the second link is stored.
  const promotional = await waitFor(async () => (await newestLinks()).find((link) => link.code !== free!.code));
  await linkCard(page, promotional.code).getByText('Promocional: R$ 49.90', { exact: true }).waitFor();
  await linkCard(page, promotional.code).getByText('2 de 2 disponíveis', { exact: true }).waitFor();
  expect(await page.getByRole('listitem').first().innerText()).toContain(promotional.code);

  const stored = await stack.system.courtesy.db('courtesy_links').where({ event_id: eventId }).orderBy('created_at');
  expect(stored.map((row) => [row.ticket_count, row.override_price, row.ticket_type_name])).toEqual([
    [3, null, 'Ingresso'],
    [2, '49.90', 'Ingresso'],
  ]);

  // Copying: the link lands on the clipboard and the button shows its check mark for 3 s.
  expect(await freeCard.getByLabel('Link de resgate').inputValue()).toBe(free!.redeemUrl);
  await freeCard.getByRole('button', { name: 'Copiar link' }).click();
  const copiedAt = Date.now();
  await page.getByText('Link copiado!', { exact: true }).waitFor();
  expect(await page.evaluate(() => (globalThis as unknown as BrowserWindow).navigator.clipboard.readText())).toBe(
    free!.redeemUrl,
  );
  await freeCard.getByRole('button', { name: 'Link copiado' }).waitFor();
  await freeCard.getByRole('button', { name: 'Copiar link' }).waitFor({ timeout: 5_000 });
  expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(2_900);

  // Deactivating asks first; then the link has none left, in red.
  await freeCard.getByRole('button', { name: 'Desativar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Desativar link de cortesia?' });
  await dialog.getByRole('button', { name: 'Desativar link' }).click();
  await page.getByText('Link desativado', { exact: true }).waitFor();
  await freeCard.getByText('Desativado', { exact: true }).waitFor();
  const none = freeCard.getByText('0 de 3 disponíveis', { exact: true });
  expect(
    await none.evaluate((element) => (globalThis as unknown as BrowserWindow).getComputedStyle(element).color),
  ).toBe('rgb(185, 28, 28)');
  expect(await stack.system.courtesy.db('courtesy_links').where({ id: free!.id }).first()).toMatchObject({
    is_active: false,
  });
});

test('more than one page of links: Página 1 de 2, the next page, and a new link brings the list back to page 1', async () => {
  for (let i = 0; i < 11; i++) {
    const made = await stack.system.call('POST', '/api/courtesy-links', {
      token: adminToken,
      body: { eventId, ticketCount: 1, overridePrice: null },
    });
    expect(made.status).toBe(201);
  }
  const { body } = await stack.system.call('GET', '/api/courtesy-links?page=1', { token: adminToken });
  expect(body.totalPages).toBe(2);

  const { page } = await open(await stack.newContext({ token: adminToken }));
  await page.goto('/cortesia-admin');
  const pager = page.getByRole('navigation', { name: 'Paginação' });
  await pager.getByText('Página 1 de 2', { exact: true }).waitFor();
  const list = page.getByRole('region', { name: 'Links criados' }).getByRole('listitem');
  expect(await list.count()).toBe(10);
  expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);

  await pager.getByRole('button', { name: 'Próxima' }).click();
  await pager.getByText('Página 2 de 2', { exact: true }).waitFor();
  const [{ count }] = await stack.system.courtesy.db('courtesy_links').count({ count: '*' });
  const onPage2 = Number(count) - 10;
  await list.nth(onPage2 - 1).waitFor();
  await list.nth(onPage2).waitFor({ state: 'detached' });
  expect(await pager.getByRole('button', { name: 'Próxima' }).isDisabled()).toBe(true);

  const form = page.getByRole('region', { name: 'Criar novo link' });
  await form.getByLabel('Evento').selectOption(eventId);
  await form.getByRole('button', { name: 'Criar link' }).click();
  await pager.getByText('Página 1 de 2', { exact: true }).waitFor();
  const [newest] = await newestLinks();
  await list.first().filter({ hasText: newest!.code }).waitFor();
});

/** A small PDF, as the attachment of every invitation. */
const PROGRAM = { name: 'programacao.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') };

test('mass send: a CSV and an attachment become invitations in the guests’ mailboxes, with a progress bar to 100%', async () => {
  const guests = ['helena', 'igor', 'julia'].map((name) => `${name}.${Date.now()}@parceiro.example.com.br`);
  const csv = {
    name: 'convidados.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'name;email;amount_of_courtesies;event_id',
        ...guests.map((email, i) => `Convidado ${i};${email};1;${eventId}`),
      ].join('\n'),
    ),
  };
  const { page } = await open(await stack.newContext({ token: adminToken }));
  await page.goto('/cortesia-envio-em-massa');
  await page.getByRole('heading', { name: 'Envio em Massa de Cortesias', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Baixar CSV de exemplo' }).waitFor();

  const form = page.getByRole('form', { name: 'Arquivos do envio' });
  await form.getByLabel('Arquivo CSV de convidados').setInputFiles(csv);
  await form.getByLabel('Anexo (opcional)').setInputFiles(PROGRAM);
  await form.getByText('convidados.csv', { exact: true }).waitFor();
  await form.getByText('programacao.pdf', { exact: true }).waitFor();
  await form.getByRole('button', { name: 'Enviar cortesias' }).click();

  await page.getByText('Emails enfileirados para envio', { exact: true }).waitFor();
  await page
    .getByText('Os e-mails de cortesia estão sendo processados e serão enviados em breve.', { exact: true })
    .waitFor();
  // The files are taken out of the form.
  expect(await form.getByText('Nenhum arquivo selecionado', { exact: true }).count()).toBe(2);
  const progress = page.getByRole('progressbar', { name: 'Progresso do envio' });
  await progress.and(page.locator('[data-state="complete"]')).waitFor({ timeout: 20_000 });
  expect(await progress.getAttribute('aria-valuetext')).toBe('100%');
  await page.getByText('Envio concluído: 3 convites enviados.', { exact: true }).waitFor();
  const jobId = new URL(page.url()).searchParams.get('envio');
  expect(await stack.system.courtesy.db('mass_send_jobs').where({ id: jobId }).first()).toMatchObject({
    total: 3,
    sent: 3,
  });

  for (const guest of guests) {
    const invitation = await stack.system.mailTo(guest, INVITATION);
    expect(invitation.attachments.map((file) => file.filename)).toEqual(['programacao.pdf']);
  }

  // The same file again is refused as a repeat; confirming sends it once more.
  await form.getByLabel('Arquivo CSV de convidados').setInputFiles(csv);
  await form.getByRole('button', { name: 'Enviar cortesias' }).click();
  await page.getByText('Erro ao enviar e-mails', { exact: true }).waitFor();
  const repeat = form.getByRole('alert').filter({ hasText: 'Este mesmo arquivo já foi enviado nas últimas 24 horas' });
  await repeat.getByRole('button', { name: 'Confirmar e enviar novamente' }).click();
  await page.getByText('Emails enfileirados para envio', { exact: true }).waitFor();
  await page.waitForURL((url) => url.searchParams.get('envio') !== jobId);
  await page.getByText('Envio concluído: 3 convites enviados.', { exact: true }).waitFor({ timeout: 20_000 });
  for (const guest of guests) await stack.system.mailTo(guest, INVITATION, 1);
}, 60_000);

test('mass send: a file that is not CSV is refused on the page, and a CSV with bad rows lists each one', async () => {
  const { page, requested } = await open(await stack.newContext({ token: adminToken }));
  await page.goto('/cortesia-envio-em-massa');
  const form = page.getByRole('form', { name: 'Arquivos do envio' });
  const csvInput = form.getByLabel('Arquivo CSV de convidados');

  await form.getByRole('button', { name: 'Enviar cortesias' }).click();
  await page.getByText('Nenhum arquivo selecionado', { exact: true }).first().waitFor();
  await toast(page, 'Nenhum arquivo selecionado').getByText('Por favor, selecione um arquivo CSV.').waitFor();

  await csvInput.setInputFiles({
    name: 'convidados.xlsx',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('x'),
  });
  await form.getByRole('alert').getByText('Por favor, selecione um arquivo CSV.', { exact: true }).waitFor();
  await form.getByRole('button', { name: 'Enviar cortesias' }).click();
  expect(requested.filter((path) => path === '/api/courtesy/mass-send')).toEqual([]);

  const jobsBefore = await stack.system.courtesy.db('mass_send_jobs').count({ count: '*' });
  await csvInput.setInputFiles({
    name: 'convidados.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'name,email,amount_of_courtesies,event_id',
        `Ana,ana@example.com,1,${eventId}`,
        `Bruno,bruno@example.com,0,${eventId}`,
        `Fábio,fabio-sem-arroba.example.com,1,${eventId}`,
      ].join('\n'),
    ),
  });
  await form.getByRole('button', { name: 'Enviar cortesias' }).click();
  await toast(page, 'Erro ao enviar e-mails').getByText('O arquivo tem erros; nenhum convite foi enviado.').waitFor();
  const problems = form.getByRole('alert').filter({ hasText: 'O arquivo tem erros; nenhum convite foi enviado.' });
  expect(await problems.getByRole('listitem').allInnerTexts()).toEqual([
    'Linha 3: quantidade de cortesias deve ser um número inteiro entre 1 e 100',
    'Linha 4: e-mail inválido',
  ]);
  expect(await stack.system.courtesy.db('mass_send_jobs').count({ count: '*' })).toEqual(jobsBefore);
});

test('the development page shows who is logged in and makes another account an admin', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const me = await stack.system.call('GET', '/api/auth/me', { token: buyer.token });
  const { page } = await open(await stack.newContext({ token: adminToken }));
  await page.goto('/admin-test');
  const account = page.getByRole('region', { name: 'Sua conta' });
  await account.getByText('Sim', { exact: true }).waitFor();

  const form = page.getByRole('region', { name: 'Tornar usuário administrador' });
  await form.getByRole('button', { name: 'Tornar administrador' }).click();
  await form.getByText('Por favor, insira o ID do usuário', { exact: true }).waitFor();
  await form.getByLabel('ID do usuário').fill(me.body.id);
  await form.getByRole('button', { name: 'Tornar administrador' }).click();
  await page.getByText(`Usuário ${buyer.name} agora é administrador`, { exact: true }).waitFor();
  expect(await stack.system.identity.db('users').where({ id: me.body.id }).first()).toMatchObject({ is_admin: true });
});
