import { readFile } from 'node:fs/promises';
import { randomInt } from 'node:crypto';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { makeCpf, readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

let stack: BrowserStack;
beforeAll(async () => {
  // The pager test buys eleven times in a minute as one buyer, past the everyday per-account budget.
  stack = await startBrowserStack({ ordersEnv: { ORDER_RATE_LIMIT_POINTS: '20' } });
}, 180_000);
afterAll(() => stack?.stop());

const ADMIN = { email: 'admin@educacaofarma.com.br', password: 'admin123' };

/** Opens a page that records the script errors it throws. */
async function open(context: BrowserContext) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/**
 * Waits for the toast with this title (and description, when given), then closes it, so the next toast the test
 * waits for is a new one. Under an open dialog the rest of the page cannot be clicked: `close: false` there.
 */
async function seeToast(page: Page, title: string, description?: string, { close = true } = {}) {
  let shown = page.locator('.toast').filter({ has: page.locator('.toast__title', { hasText: title }) });
  if (description !== undefined) shown = shown.filter({ hasText: description });
  await shown.waitFor();
  if (!close) return;
  await shown.getByRole('button', { name: 'Fechar' }).click();
  await shown.waitFor({ state: 'detached' });
}

/** The inline message of the field labelled `label`, on the page or inside a part of it. */
function fieldError(scope: Page | Locator, label: string) {
  const page = 'goto' in scope ? scope : scope.page();
  return scope
    .locator('.field, .checkbox')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.field__error');
}

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

const newPerson = () => ({
  name: 'Carolina Mendes Araújo',
  cpf: makeCpf(),
  birthDate: '05/11/1988',
  email: `carolina.${randomInt(1e9)}@example.com.br`,
  phone: '(21) 99876-5432',
  address: 'Rua Voluntários da Pátria, 45 — Botafogo, Rio de Janeiro — RJ',
  password: 'farmacia-segura-1',
});

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
}

/** The current user as the API answers it to `token`. */
const me = (token: string) => stack.system.call('GET', '/api/auth/me', { token });

const codeIn = (text: string | null) => /\b(\d{6})\b/.exec(text ?? '')![1]!;

test('a visitor registers with masked fields, sees every form message inline, verifies the e-mailed code and is logged in', async () => {
  const { page, errors } = await open(await stack.newContext());
  const person = newPerson();
  await page.goto('/register');
  const submit = page.getByRole('button', { name: 'Criar conta', exact: true });
  const field = (label: string) => page.getByLabel(label, { exact: true });

  await submit.click();
  const emptyForm: [string, string][] = [
    ['Nome completo', 'Nome deve ter pelo menos 2 caracteres'],
    ['CPF', 'CPF deve estar no formato 000.000.000-00'],
    ['Data de nascimento', 'Data deve estar no formato dd/mm/aaaa'],
    ['Telefone', 'Telefone deve estar no formato (00) 00000-0000'],
    ['Endereço completo', 'Endereço deve ter pelo menos 10 caracteres'],
    ['E-mail', 'Email inválido'],
    ['Senha', 'Senha deve ter pelo menos 8 caracteres'],
    ['Confirme a senha', 'Senha deve ter pelo menos 8 caracteres'],
    ['Li e aceito os termos de uso e a política de privacidade', 'Você deve aceitar os termos'],
  ];
  for (const [label, message] of emptyForm) expect(await fieldError(page, label).innerText()).toBe(message);
  expect(pathOf(page)).toBe('/register');

  // The masks format what is typed, keystroke by keystroke, and drop what is not a digit.
  await field('CPF').pressSequentially('111a111b11111');
  expect(await field('CPF').inputValue()).toBe('111.111.111-11');
  await field('Data de nascimento').pressSequentially('31021990');
  expect(await field('Data de nascimento').inputValue()).toBe('31/02/1990');
  await field('Telefone').pressSequentially('21998765432');
  expect(await field('Telefone').inputValue()).toBe('(21) 99876-5432');
  await field('Telefone').fill('');
  await field('Telefone').pressSequentially('2133334444');
  expect(await field('Telefone').inputValue()).toBe('(21) 3333-4444');
  expect(await field('CPF').getAttribute('maxlength')).toBe('14');
  expect(await field('Data de nascimento').getAttribute('maxlength')).toBe('10');
  expect(await field('Telefone').getAttribute('maxlength')).toBe('15');

  // After the first submit each field is checked again as it changes.
  expect(await fieldError(page, 'CPF').innerText()).toBe('CPF inválido');
  expect(await fieldError(page, 'Data de nascimento').innerText()).toBe('Data de nascimento inválida');
  await field('Data de nascimento').fill('');
  await field('Data de nascimento').pressSequentially('01012999');
  await fieldError(page, 'Data de nascimento').getByText('A data de nascimento deve estar no passado').waitFor();
  await fieldError(page, 'Telefone').waitFor({ state: 'detached' });

  // Every field right but the two confirmations.
  await field('Nome completo').fill(person.name);
  await field('CPF').fill('');
  await field('CPF').pressSequentially(person.cpf.replace(/\D/g, ''));
  expect(await field('CPF').inputValue()).toBe(person.cpf);
  await field('Data de nascimento').fill('');
  await field('Data de nascimento').pressSequentially(person.birthDate.replace(/\D/g, ''));
  await field('Telefone').fill('');
  await field('Telefone').pressSequentially(person.phone.replace(/\D/g, ''));
  await field('Endereço completo').fill(person.address);
  await field('E-mail').fill(person.email);
  await field('Confirme o e-mail').fill(`outra.${person.email}`);
  await field('Senha').fill(person.password);
  await field('Confirme a senha').fill(`${person.password}-diferente`);
  await field('Li e aceito os termos de uso e a política de privacidade').check();
  await submit.click();
  await fieldError(page, 'Confirme o e-mail').getByText('Os e-mails não coincidem', { exact: true }).waitFor();
  expect(await fieldError(page, 'Confirme a senha').innerText()).toBe('As senhas não coincidem');
  for (const label of ['Nome completo', 'CPF', 'Data de nascimento', 'Telefone', 'Endereço completo', 'E-mail']) {
    expect(await fieldError(page, label).count()).toBe(0);
  }

  await field('Confirme o e-mail').fill(person.email.toUpperCase());
  await field('Confirme a senha').fill(person.password);
  await submit.click();
  await page.waitForURL(`**/verify-email?email=${encodeURIComponent(person.email)}`);
  await seeToast(
    page,
    'Cadastro recebido!',
    'Se os dados estiverem disponíveis, você receberá um código de verificação no e-mail informado. Se já tiver conta, enviamos as instruções para o e-mail dela.',
  );
  // The code just went out: resending waits 30 seconds, counted down on the button.
  const resend = page.getByRole('button', { name: /^Reenviar código em \d+s$/ });
  expect(Number(/(\d+)s/.exec(await resend.innerText())![1])).toBeGreaterThanOrEqual(25);
  expect(await resend.isDisabled()).toBe(true);

  const code = codeIn((await stack.system.mailTo(person.email, 'Seu código de verificação')).text);
  await page.getByLabel('Código de verificação').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verificar', exact: true }).click();
  await seeToast(page, 'Erro', 'Código inválido ou expirado');
  await page.getByLabel('Código de verificação').fill(code);
  await page.getByRole('button', { name: 'Verificar', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await seeToast(page, 'E-mail verificado com sucesso');
  await page
    .getByRole('banner')
    .getByRole('button', { name: `Menu da conta de ${person.name}` })
    .waitFor();

  const account = await me((await storedToken(page))!);
  expect(account.body).toMatchObject({
    name: person.name,
    email: person.email,
    emailVerified: true,
    cpf: person.cpf,
    phone: person.phone,
    address: person.address,
    birthDate: '1988-11-05',
  });
  expect(errors).toEqual([]);
}, 60_000);

/**
 * The resend button a moment after its 30-second countdown started: the page's clock also runs in real time, and
 * a loaded machine may take a second or more to show the toast and the button.
 */
const JUST_STARTED = /^Reenviar código em (30|2\d)s$/;

test('an unverified account that logs in is asked for its code; resending counts 30 seconds down', async () => {
  const { system } = stack;
  const person = newPerson();
  await system.call('POST', '/api/auth/register', { body: person });
  const firstCode = await system.mailTo(person.email, 'Seu código de verificação');
  const { page, errors } = await open(await stack.newContext());
  await page.clock.install();

  await logIn(page, person.email, person.password);
  await page.waitForURL(`**/verify-email?email=${encodeURIComponent(person.email)}`);
  await seeToast(page, 'Verificação necessária');

  // Logged in but not verified: the profile says so.
  await page.goto('/profile');
  await page.getByText('Email não verificado', { exact: true }).waitFor();
  await page.getByRole('link', { name: 'Já tenho o código' }).click();
  await page.waitForURL(`**/verify-email?email=${encodeURIComponent(person.email)}`);

  // The code sent at registration is under 30 seconds old: the server refuses, and the button counts down.
  const resend = page.getByRole('button', { name: /^Reenviar código/ });
  expect(await resend.innerText()).toBe('Reenviar código');
  await resend.click();
  await seeToast(page, 'Erro', 'Aguarde 30 segundos para solicitar um novo código.');
  await page.getByRole('button', { name: JUST_STARTED }).waitFor();
  expect(await resend.isDisabled()).toBe(true);
  // Ten seconds on, it reads 20s or less.
  await page.clock.fastForward(10_000);
  await page.getByRole('button', { name: /^Reenviar código em (1\d|20)s$/ }).waitFor();

  // Thirty seconds later, on the server and in the page, a new code goes out.
  await system.identity.redis.del(`identity:resend-cooldown:${person.email}`);
  await page.clock.fastForward(21_000);
  await page.getByRole('button', { name: 'Reenviar código', exact: true }).click();
  await seeToast(
    page,
    'Código reenviado',
    'Se o e-mail estiver cadastrado e não verificado, enviaremos um novo código.',
  );
  await page.getByRole('button', { name: JUST_STARTED }).waitFor();
  const newCode = await waitFor(() =>
    system.catcher
      .messages()
      .find(
        (mail) =>
          mail.to.includes(person.email) && mail.subject === 'Seu código de verificação' && mail.id !== firstCode.id,
      ),
  );
  const code = codeIn(newCode.text);

  await page.getByLabel('Código de verificação').fill(code);
  await page.getByRole('button', { name: 'Verificar', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect((await me((await storedToken(page))!)).body.emailVerified).toBe(true);
  expect(errors).toEqual([]);
}, 60_000);

test('an account under guessing: a new device is sent a sign-in link, which the page spends once', async () => {
  const { system } = stack;
  const buyer = await verifiedBuyer(system);
  // Ten wrong passwords from ten other addresses (straight to identity, which reads them from X-Forwarded-For).
  for (let i = 1; i <= 10; i++) {
    const guess = await fetch(`${system.identity.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
      body: JSON.stringify({ email: buyer.email, password: `chute-${i}` }),
    });
    expect(guess.status).toBe(401);
  }
  const { page, errors } = await open(await stack.newContext());
  await page.goto('/entrar-com-link');
  await page.getByRole('alert').getByText('Link de acesso inválido ou ausente.', { exact: true }).waitFor();

  // The right password from this browser is not checked: the owner is told to open the e-mailed link.
  await logIn(page, buyer.email, buyer.password);
  await seeToast(page, 'Confira seu e-mail', 'enviamos um link de acesso para o e-mail da conta');
  expect(await storedToken(page)).toBeNull();
  const mail = await system.mailTo(buyer.email, 'Seu link de acesso');
  const link = new URL(/https?:\/\/\S+\/entrar-com-link\?token=[\w%-]+/.exec(mail.text ?? '')![0]);

  // Opening the page spends nothing; the button does, once.
  await page.goto(link.pathname + link.search);
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Entrar na minha conta' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect((await me((await storedToken(page))!)).body).toMatchObject({ email: buyer.email });

  const other = await open(await stack.newContext());
  await other.page.goto(link.pathname + link.search);
  await other.page.getByRole('button', { name: 'Entrar na minha conta' }).click();
  await seeToast(other.page, 'Erro no login', 'Link de acesso inválido ou expirado. Faça login novamente.');
  expect(await storedToken(other.page)).toBeNull();
  expect([...errors, ...other.errors]).toEqual([]);
}, 60_000);

test('forgot password: the e-mailed link sets a new password once, and a saved courtesy code is redeemed after login', async () => {
  const { system } = stack;
  const buyer = await verifiedBuyer(system);
  const { page, errors } = await open(await stack.newContext());

  await page.goto('/profile');
  await page.waitForURL('**/login');
  await page.goto('/reset-password');
  await page.getByRole('alert').getByText('Token inválido ou ausente.', { exact: true }).waitFor();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await page.waitForURL('**/forgot-password');
  await page.getByRole('button', { name: 'Enviar link' }).click();
  expect(await fieldError(page, 'E-mail').innerText()).toBe('Email inválido');
  await page.getByLabel('E-mail', { exact: true }).fill(buyer.email);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await page
    .getByRole('status')
    .getByText('Se sua conta existir, enviaremos um link para redefinir sua senha.', { exact: true })
    .waitFor();

  // The link points at the public address; this browser reaches the same page through the gateway.
  const mail = await system.mailTo(buyer.email, 'Redefinição de senha');
  const link = new URL(/https?:\/\/\S+\/reset-password\?token=[\w%-]+/.exec(mail.text ?? '')![0]);
  await page.goto(link.pathname + link.search);
  const newPassword = page.getByLabel('Nova senha', { exact: true });
  const confirm = page.getByLabel('Confirme a nova senha', { exact: true });
  const submit = page.getByRole('button', { name: 'Redefinir senha' });
  await newPassword.fill('curta');
  await confirm.fill('outra');
  await submit.click();
  expect(await fieldError(page, 'Nova senha').innerText()).toBe('Senha deve ter pelo menos 8 caracteres');
  expect(await fieldError(page, 'Confirme a nova senha').innerText()).toBe('As senhas não coincidem.');
  await newPassword.fill('senha-nova-42');
  await confirm.fill('senha-nova-42');
  await submit.click();
  await page.waitForURL('**/login');
  await seeToast(page, 'Senha redefinida', 'Senha redefinida com sucesso. Faça login com a nova senha.');

  // The link works once.
  await page.goto(link.pathname + link.search);
  await newPassword.fill('senha-nova-43');
  await confirm.fill('senha-nova-43');
  await submit.click();
  await seeToast(page, 'Erro', 'Link de redefinição inválido ou expirado. Solicite um novo.');

  // The old password no longer opens the account; the new one does, straight into the saved courtesy code.
  await logIn(page, buyer.email, buyer.password);
  await seeToast(page, 'Erro no login', 'Email ou senha inválidos');
  expect(await storedToken(page)).toBeNull();
  await page.evaluate(() => localStorage.setItem('pendingCourtesyCode', 'CDPI12345ABC'));
  await logIn(page, buyer.email, 'senha-nova-42');
  await page.waitForURL('**/cortesia?code=CDPI12345ABC');
  expect(await page.evaluate(() => localStorage.getItem('pendingCourtesyCode'))).toBeNull();
  expect((await me((await storedToken(page))!)).status).toBe(200);
  expect(errors).toEqual([]);
}, 60_000);

test('orders: a paid one shows its QR code and downloads it; a pending one is re-checked and cancelled; a courtesy reads Cortesia', async () => {
  const { system } = stack;
  const { call, sandbox } = system;
  const workshop = await adminEvent(system, { maxAttendees: 50, title: 'Workshop de Farmácia Clínica' });
  const symposium = await adminEvent(system, { maxAttendees: 50, title: 'Simpósio de Farmacovigilância' });
  const gift = await adminEvent(system, { maxAttendees: 50, title: 'Encontro de Farmácia Hospitalar' });
  const buyer = await verifiedBuyer(system);

  const paid = await call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId: workshop.eventId, paymentMethod: 'pix' },
  });
  const pending = await call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId: symposium.eventId, paymentMethod: 'boleto' },
  });
  const link = await call('POST', '/api/courtesy-links', {
    token: gift.adminToken,
    body: { eventId: gift.eventId, ticketCount: 1, overridePrice: null },
  });
  const redeemed = await call('POST', '/api/courtesy/redeem', {
    token: buyer.token,
    body: {
      name: buyer.name,
      email: buyer.email,
      emailConfirm: buyer.email,
      cpf: buyer.cpf,
      partnerCompany: 'Hospital Parceiro',
      occupation: 'Farmacêutica',
      birthDate: '1991-07-21',
      address: buyer.address,
      phone: buyer.phone,
      code: link.body.code,
    },
  });
  expect(redeemed.status).toBe(201);
  sandbox.confirm(paid.body.order.asaasPaymentId);
  const orders = await waitFor(async () => {
    const { body } = await call('GET', '/api/orders?page=1', { token: buyer.token });
    return body.orders.filter((order: { qrCodeData: string | null }) => order.qrCodeData).length === 2 && body.orders;
  });
  const qrOf = (orderId: string) => orders.find((order: { id: string }) => order.id === orderId).qrCodeData as string;

  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto('/profile');
  const card = (title: string) => page.getByRole('article', { name: title });

  const paidCard = card('Workshop de Farmácia Clínica');
  await paidCard.getByText('Confirmado', { exact: true }).waitFor();
  await paidCard.getByText('R$ 155,00', { exact: true }).waitFor();
  await paidCard.getByText('PIX', { exact: true }).waitFor();
  await paidCard.getByText('Belo Horizonte — MG', { exact: true }).waitFor();
  const qr = paidCard.getByRole('img', { name: `QR Code do ingresso do pedido nº ${paid.body.order.orderNumber}` });
  expect(await qr.getAttribute('src')).toBe(qrOf(paid.body.order.id));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    paidCard.getByRole('link', { name: 'Baixar ingresso (PNG)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`ingresso-${paid.body.order.orderNumber}.png`);
  const downloaded = await readFile((await download.path())!);
  expect(readQrCode(downloaded)).toBe(readQrCode(qrOf(paid.body.order.id)));
  expect(readQrCode(downloaded)).toMatch(/^T1\./);
  expect(await paidCard.getByRole('button', { name: 'Resetar Ingresso' }).count()).toBe(0);

  const courtesyCard = card('Encontro de Farmácia Hospitalar');
  await courtesyCard.getByText('Confirmado', { exact: true }).waitFor();
  await courtesyCard.getByText('Cortesia', { exact: true }).waitFor();
  await courtesyCard.getByText('R$ 0,00', { exact: true }).waitFor();

  const pendingCard = card('Simpósio de Farmacovigilância');
  await pendingCard.getByText('Aguardando Pagamento', { exact: true }).waitFor();
  await pendingCard.getByText('Boleto', { exact: true }).waitFor();
  expect(await pendingCard.getByRole('img').count()).toBe(0);
  await pendingCard.getByRole('button', { name: 'Verificar pagamento' }).click();
  await seeToast(page, 'Status do pagamento', 'Pagamento ainda não identificado. Tente novamente em alguns minutos.');
  await pendingCard.getByRole('button', { name: 'Verificar pagamento' }).click();
  await seeToast(
    page,
    'Erro ao verificar status do pagamento',
    'Aguarde alguns segundos antes de verificar o pagamento novamente.',
  );

  // Cancelling asks first; keeping the order changes nothing.
  await pendingCard.getByRole('button', { name: 'Cancelar pedido' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancelar pedido?' });
  await dialog.getByRole('button', { name: 'Manter pedido' }).click();
  await dialog.waitFor({ state: 'detached' });
  await pendingCard.getByRole('button', { name: 'Cancelar pedido' }).click();
  await dialog.getByRole('button', { name: 'Sim, cancelar pedido' }).click();
  await seeToast(page, 'Pedido cancelado.');
  await pendingCard.getByText('Cancelado', { exact: true }).waitFor();
  expect(await pendingCard.getByRole('button').count()).toBe(0);
  const after = await call('GET', '/api/orders?page=1', { token: buyer.token });
  expect(after.body.orders.find((order: { id: string }) => order.id === pending.body.order.id).status).toBe(
    'cancelled',
  );
  // One page of orders: no pager.
  expect(await page.getByRole('navigation', { name: 'Paginação' }).count()).toBe(0);
  expect(errors).toEqual([]);
}, 60_000);

test('more than ten orders bring the pager, ten per page', async () => {
  const { system } = stack;
  const { eventId } = await adminEvent(system, { maxAttendees: 50, title: 'Curso de Assuntos Regulatórios' });
  const buyer = await verifiedBuyer(system);
  // One pending order per event at a time: each one is cancelled before the next.
  const order = async () => {
    const made = await system.call('POST', '/api/orders', {
      token: buyer.token,
      body: { eventId, paymentMethod: 'pix' },
    });
    expect(made.status).toBe(201);
    return made.body.order.id as string;
  };
  for (let made = 0; made < 10; made++) {
    await system.call('DELETE', `/api/orders/${await order()}/cancel`, { token: buyer.token });
  }

  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto('/profile');
  const cards = page.getByRole('article');
  await cards.nth(9).waitFor();
  expect(await cards.count()).toBe(10);
  expect(await page.getByRole('navigation', { name: 'Paginação' }).count()).toBe(0);

  await order();
  await page.reload();
  const pager = page.getByRole('navigation', { name: 'Paginação' });
  await pager.getByText('Página 1 de 2').waitFor();
  expect(await cards.count()).toBe(10);
  await cards.first().getByText('Aguardando Pagamento', { exact: true }).waitFor();
  expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);
  await pager.getByRole('button', { name: 'Próxima' }).click();
  await pager.getByText('Página 2 de 2').waitFor();
  await page.locator('[aria-busy]').waitFor({ state: 'detached' });
  expect(await cards.count()).toBe(1);
  expect(await pager.getByRole('button', { name: 'Próxima' }).isDisabled()).toBe(true);
  await pager.getByRole('button', { name: 'Anterior' }).click();
  await pager.getByText('Página 1 de 2').waitFor();
  expect(errors).toEqual([]);
  // Eleven orders made and cancelled one after another: a minute or more on a busy machine.
}, 120_000);

test('an administrator sees Resetar Ingresso on a used ticket, and the reset lets it in again', async () => {
  const { system } = stack;
  const { eventId } = await adminEvent(system, { maxAttendees: 50, title: 'Jornada de Farmácia Clínica' });
  // A buyer made administrator (development tool), logged in again so the session says so.
  const buyer = await verifiedBuyer(system);
  const self = await system.call('GET', '/api/auth/me', { token: buyer.token });
  await system.call('POST', `/api/make-admin/${self.body.id}`, { token: buyer.token });
  const { token } = (
    await system.call('POST', '/api/auth/login', { body: { email: buyer.email, password: buyer.password } })
  ).body;

  const bought = await system.call('POST', '/api/orders', { token, body: { eventId, paymentMethod: 'pix' } });
  system.sandbox.confirm(bought.body.order.asaasPaymentId);
  const qrImage = await waitFor(async () => {
    const { body } = await system.call('GET', '/api/orders?page=1', { token });
    // A busy system may answer 503 for a moment: asked again until the ticket is there.
    return body.orders?.[0]?.qrCodeData as string | null;
  });
  const qrCodeData = readQrCode(qrImage)!;
  const door = () => system.call('POST', '/api/verify-ticket', { token, body: { qrCodeData } });
  expect((await door()).body).toMatchObject({ success: true, code: 'valid' });
  await waitFor(async () => (await system.call('GET', '/api/orders?page=1', { token })).body.orders[0].qrCodeUsed);

  const { page, errors } = await open(await stack.newContext({ token }));
  await page.goto('/profile');
  const ticket = page.getByRole('article', { name: 'Jornada de Farmácia Clínica' });
  await ticket.getByText(/^Utilizado em \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/).waitFor();
  await ticket.getByRole('button', { name: 'Resetar Ingresso' }).click();
  await seeToast(page, 'Ingresso resetado', 'Ingresso liberado para uma nova leitura');
  await ticket.getByRole('button', { name: 'Resetar Ingresso' }).waitFor({ state: 'detached' });
  await ticket.getByText('Apresente este QR Code na entrada do evento.').waitFor();

  expect((await door()).body).toMatchObject({ success: true, code: 'valid' });
  expect((await door()).body).toMatchObject({ success: false, code: 'already_used' });
  expect(errors).toEqual([]);
}, 60_000);

test('personal data needs the current password for name, e-mail and phone; the password changes; the account is deleted in two steps', async () => {
  const { system } = stack;
  const buyer = await verifiedBuyer(system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.goto('/profile');
  await page.getByRole('tab', { name: 'Informações Pessoais' }).click();
  const form = page.getByRole('tabpanel', { name: 'Informações Pessoais' });
  const save = form.getByRole('button', { name: 'Salvar alterações' });
  const field = (label: string) => form.getByLabel(label, { exact: true });

  expect(await field('CPF').inputValue()).toBe(buyer.cpf);
  expect(await field('CPF').getAttribute('readonly')).not.toBeNull();
  expect(await field('Data de nascimento').inputValue()).toBe(buyer.birthDate);
  expect(await save.isDisabled()).toBe(true);

  // A new name without the password: refused on the page, nothing sent.
  await field('Nome completo').fill('Beatriz C. Rocha');
  await save.click();
  expect(await fieldError(form, 'Senha atual').innerText()).toBe('Senha necessária');
  // A wrong password: the server refuses, and the session stays.
  await field('Senha atual').fill('senha-errada');
  await save.click();
  await seeToast(page, 'Erro ao atualizar perfil', 'Senha atual incorreta');
  expect(pathOf(page)).toBe('/profile');
  expect((await me(buyer.token)).body.name).toBe(buyer.name);

  await field('Senha atual').fill(buyer.password);
  await save.click();
  await seeToast(page, 'Perfil atualizado');
  expect((await me(buyer.token)).body.name).toBe('Beatriz C. Rocha');
  await page.getByRole('complementary', { name: 'Sua conta' }).getByText('Beatriz C. Rocha').waitFor();
  await page.getByRole('banner').getByRole('button', { name: 'Menu da conta de Beatriz C. Rocha' }).waitFor();
  expect(await field('Senha atual').inputValue()).toBe('');

  // The address needs no password.
  await field('Endereço completo').fill('Alameda Santos, 1000 — Jardim Paulista, São Paulo — SP');
  await save.click();
  await seeToast(page, 'Perfil atualizado');
  expect((await me(buyer.token)).body.address).toBe('Alameda Santos, 1000 — Jardim Paulista, São Paulo — SP');

  // Password change: a wrong current password is an error, not a logout; a mismatch is caught on the page.
  await page.getByRole('tab', { name: 'Segurança' }).click();
  const security = page.getByRole('tabpanel', { name: 'Segurança' });
  const change = security.getByRole('button', { name: 'Alterar senha' });
  await security.getByLabel('Senha atual', { exact: true }).fill('senha-errada');
  await security.getByLabel('Nova senha', { exact: true }).fill('senha-trocada-7');
  await security.getByLabel('Confirme a nova senha', { exact: true }).fill('senha-trocada-8');
  await change.click();
  expect(await fieldError(security, 'Confirme a nova senha').innerText()).toBe('As senhas não coincidem.');
  await security.getByLabel('Confirme a nova senha', { exact: true }).fill('senha-trocada-7');
  await change.click();
  await seeToast(page, 'Erro ao alterar senha', 'Senha atual incorreta');
  expect(await storedToken(page)).toBe(buyer.token);
  await security.getByLabel('Senha atual', { exact: true }).fill(buyer.password);
  await change.click();
  await seeToast(page, 'Senha alterada com sucesso');
  // Other sessions end; this browser keeps going with the token it got back.
  const renewed = (await storedToken(page))!;
  expect(renewed).not.toBe(buyer.token);
  expect((await me(buyer.token)).status).toBe(401);
  expect((await me(renewed)).status).toBe(200);

  // Logged out, the new password opens the account.
  const avatar = page.getByRole('banner').getByRole('button', { name: 'Menu da conta de Beatriz C. Rocha' });
  await avatar.click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  // 'Sair' starts over on the home page once the device's data is forgotten: the next navigation waits for it.
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('banner').getByRole('link', { name: 'Área de acesso' }).waitFor();
  await logIn(page, buyer.email, 'senha-trocada-7');
  await page.waitForURL((url) => url.pathname === '/');
  await avatar.waitFor();

  // Deleting asks twice, the second time for the password.
  await page.goto('/profile');
  await page.getByRole('tab', { name: 'Segurança' }).click();
  await security.getByRole('button', { name: 'Excluir minha conta' }).click();
  const warning = page.getByRole('dialog', { name: 'Excluir sua conta?' });
  await warning.getByRole('button', { name: 'Manter minha conta' }).click();
  await warning.waitFor({ state: 'detached' });
  await security.getByRole('button', { name: 'Excluir minha conta' }).click();
  await warning.getByRole('button', { name: 'Continuar' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirme com sua senha' });
  const confirmDelete = confirmation.getByRole('button', { name: 'Excluir conta definitivamente' });
  await confirmDelete.click();
  expect(await fieldError(confirmation, 'Senha').innerText()).toBe('Digite sua senha para confirmar a exclusão.');
  await confirmation.getByLabel('Senha', { exact: true }).fill('senha-errada');
  await confirmDelete.click();
  await seeToast(page, 'Erro ao excluir conta', 'Senha incorreta', { close: false });
  const session = (await storedToken(page))!;
  expect((await me(session)).status).toBe(200);
  await confirmation.getByLabel('Senha', { exact: true }).fill('senha-trocada-7');
  await confirmDelete.click();
  await page.waitForURL((url) => url.pathname === '/');
  await seeToast(page, 'Conta excluída com sucesso');
  expect(await storedToken(page)).toBeNull();
  await page.getByRole('banner').getByRole('link', { name: 'Área de acesso' }).waitFor();
  expect((await me(session)).status).toBe(401);

  await logIn(page, buyer.email, 'senha-trocada-7');
  await seeToast(page, 'Erro no login', 'Email ou senha inválidos');
  expect(pathOf(page)).toBe('/login');
  expect(errors).toEqual([]);
}, 60_000);

test('the admin account, seeded without personal data, opens its profile', async () => {
  const admin = await stack.system.call('POST', '/api/auth/login', { body: ADMIN });
  const { page, errors } = await open(await stack.newContext({ token: admin.body.token }));
  await page.goto('/profile');
  await page.getByRole('complementary', { name: 'Sua conta' }).getByText('ADMIN', { exact: true }).waitFor();
  await page.getByText('Você ainda não tem ingressos.').waitFor();
  await page.getByRole('tab', { name: 'Informações Pessoais' }).click();
  expect(await page.getByLabel('CPF', { exact: true }).inputValue()).toBe('');
  expect(errors).toEqual([]);
});
