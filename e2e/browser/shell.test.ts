import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@ticketing/testkit';
import { verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

let stack: BrowserStack;
beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);
afterAll(() => stack?.stop());

const SINGLETONS = ['react', 'react/jsx-runtime', 'react-dom', '@tanstack/react-query', '@ticketing/shared/router'];

/** Opens a page that records the paths it requests and the script errors it throws. */
async function open(context: BrowserContext) {
  const page = await context.newPage();
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, requested, errors };
}

const header = (page: Page) => page.getByRole('banner');
/** The page's title inside the layout: any, or the one named. */
const heading = (page: Page, name?: string) =>
  page.getByRole('main').getByRole('heading', { level: 1, ...(name === undefined ? {} : { name, exact: true }) });

/** Resolves once a page module of `remote` has been downloaded (call it before the navigation). */
const remotePageLoaded = (page: Page, remote: string) =>
  page.waitForResponse((response) =>
    new URL(response.url()).pathname.startsWith(`/${remote}/assets/__federation_expose_`),
  );

/** Each shared package as the federation runtime registered it: which versions, who provided them. */
const sharedModules = (page: Page) =>
  page.evaluate((names) => {
    type Registration = { from: string; loaded?: boolean };
    type Scopes = Record<string, Record<string, Record<string, Record<string, Registration>>>>;
    const scopes = (globalThis as unknown as { __FEDERATION__: { __SHARE__: Scopes } }).__FEDERATION__.__SHARE__;
    return names.map((name) => {
      const registrations = Object.values(scopes).flatMap((scope) => Object.values(scope.default?.[name] ?? {}));
      return {
        name,
        versions: [...new Set(Object.values(scopes).flatMap((scope) => Object.keys(scope.default?.[name] ?? {})))],
        providers: [...new Set(registrations.filter((entry) => entry.loaded).map((entry) => entry.from))],
      };
    });
  }, SINGLETONS);

test('the home page shows the shell around the storefront page', async () => {
  const { page, requested, errors } = await open(await stack.newContext());
  const storefront = remotePageLoaded(page, 'storefront');
  const response = await page.goto('/');

  // The page runs under the gateway's strict policy (a violation would fail the test).
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self';style-src 'self';/);
  await storefront;
  await heading(page).waitFor();
  const nav = header(page).getByRole('navigation', { name: 'Principal' });
  expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Eventos', 'Resgate de cortesia', 'Área de acesso']);
  expect(await nav.getByRole('link', { name: 'Área de acesso' }).getAttribute('href')).toBe('/login');
  // The search icon opens a field that sends the words to the events list.
  await header(page).getByRole('button', { name: 'Buscar eventos' }).click();
  const search = header(page).getByRole('search');
  await search.getByRole('searchbox', { name: 'Buscar eventos' }).fill('farmácia');
  await search.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL('**/eventos?q=farm%C3%A1cia');
  await search.waitFor({ state: 'hidden' });
  await page.goBack();
  await page.getByRole('contentinfo').getByRole('link', { name: 'contato@educacaofarma.com.br' }).waitFor();
  // The server-rendered page carries the remotes' addresses; a page rendered in the browser asks for them.
  expect(requested).toContain('/storefront/remoteEntry.js');
  expect(requested).not.toContain('/storefront/mf-manifest.json');
  expect(requested).not.toContain('/runtime-config.json');
  await page.goto('/login');
  await heading(page).waitFor();
  expect(requested).toEqual(expect.arrayContaining(['/runtime-config.json', '/profile/remoteEntry.js']));
  expect(errors).toEqual([]);
});

test('React, the router and react-query exist once: the remotes use the shell’s and download only their pages', async () => {
  const { page, requested, errors } = await open(await stack.newContext());
  const storefront = remotePageLoaded(page, 'storefront');
  await page.goto('/');
  await storefront;
  // The visitor's page runs the storefront's code (fetched ahead) at the first key.
  await hydrated(page);
  const profile = remotePageLoaded(page, 'profile');
  await header(page).getByRole('link', { name: 'Área de acesso' }).click();
  await profile;
  const admin = remotePageLoaded(page, 'admin');
  await page.goto('/admin-test');
  await admin;
  await heading(page).waitFor();

  for (const shared of await sharedModules(page)) {
    expect(shared).toEqual({ name: shared.name, versions: [expect.any(String)], providers: ['shell'] });
  }
  const remoteFiles = requested.filter((path) => /^\/(storefront|profile|admin|door)\//.test(path));
  for (const path of remoteFiles) {
    expect(path).toMatch(/^\/\w+\/(mf-manifest\.json|remoteEntry\.js|assets\/[\w.-]+\.(js|css))$/);
  }
  // The storefront's is asked for twice: fetched ahead, then revalidated when it runs.
  const entries = new Set(remoteFiles.filter((path) => path.endsWith('remoteEntry.js')));
  expect([...entries].sort()).toEqual([
    '/admin/remoteEntry.js',
    '/profile/remoteEntry.js',
    '/storefront/remoteEntry.js',
  ]);
  expect(errors).toEqual([]);
});

interface BrowserWindow {
  scrollY: number;
  scrollTo(x: number, y: number): void;
  document: {
    documentElement: { scrollHeight: number };
    querySelector(selector: string): Record<string, unknown> | null;
  };
}

/** Until React has taken the server's page over: a visitor's page runs its code at the first click or key. */
const hydrated = async (page: Page) => {
  await page.keyboard.press('Shift');
  await page.waitForFunction(() => {
    const heading = (globalThis as unknown as BrowserWindow).document.querySelector('#root h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber'));
  });
};

test('a new page opens at its top; going back returns to where the page was left', async () => {
  const { page, errors } = await open(await stack.newContext());
  // A phone's screen: both pages are taller than it.
  await page.setViewportSize({ width: 390, height: 500 });
  await page.goto('/');
  await hydrated(page);
  const scrolled = () => page.evaluate(() => (globalThis as unknown as BrowserWindow).scrollY);
  await page.evaluate(() => {
    const browser = globalThis as unknown as BrowserWindow;
    browser.scrollTo(0, browser.document.documentElement.scrollHeight);
  });
  const place = await scrolled();
  expect(place).toBeGreaterThan(0);

  // The bar's link to the events (hidden on a phone), followed without scrolling to it as a pointer click would.
  const events = header(page).getByRole('link', { name: 'Eventos', exact: true, includeHidden: true }).first();
  await events.dispatchEvent('click');
  await heading(page, 'Todos os eventos').waitFor();
  expect(await scrolled()).toBe(0);

  await page.goBack();
  await page.waitForURL((url) => url.pathname === '/');
  await heading(page).waitFor();
  expect(await scrolled()).toBe(place);
  expect(errors).toEqual([]);
});

test('the profile and door remotes load on navigation; admins see their badge, links and avatar menu', async () => {
  const admin = await stack.system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const { page, requested, errors } = await open(await stack.newContext({ token: admin.body.token }));
  await page.goto('/');

  await header(page).getByText('ADMIN', { exact: true }).waitFor();
  const nav = header(page).getByRole('navigation', { name: 'Principal' });
  expect(await nav.getByRole('link').allInnerTexts()).toEqual([
    'Eventos',
    'Resgate de cortesia',
    'Área de acesso',
    'Verificar QR',
    'Gerenciar Cortesias',
  ]);

  await nav.getByRole('link', { name: 'Verificar QR' }).click();
  await heading(page, 'Verificar Ingresso').waitFor();
  // The door is a remote of its own: a phone at the entrance downloads none of the back office.
  expect(requested).toContain('/door/remoteEntry.js');
  expect(requested).not.toContain('/admin/remoteEntry.js');

  const name: string = admin.body.user.name;
  const initials = name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
  const avatar = header(page).getByRole('button', { name: `Menu da conta de ${name}` });
  expect(await avatar.locator('[aria-hidden="true"]').innerText()).toBe(initials);
  await avatar.click();
  const menu = page.getByRole('menu');
  await menu.getByText(admin.body.user.email).waitFor();
  expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
    'Meu Perfil',
    'Verificar QR',
    'Painel da Portaria',
    'Gerenciar Eventos',
    'Vendas',
    'Pedidos e pessoas',
    'Gerenciar Cortesias',
    'Sair',
  ]);
  const profile = remotePageLoaded(page, 'profile');
  await menu.getByRole('menuitem', { name: 'Meu Perfil' }).click();
  await page.waitForURL('**/profile');
  await profile;

  // The token the page holds now (the door's page renews it while open).
  const held = (await page.evaluate(() => localStorage.getItem('token')))!;
  await avatar.click();
  const logout = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/auth/logout');
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  // From the profile, 'Sair' starts over on the home page (after the header has already changed).
  await page.waitForURL((url) => url.pathname === '/');
  await header(page).getByRole('link', { name: 'Área de acesso' }).and(page.locator('[href="/login"]')).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const request = await logout;
  expect(request.method()).toBe('POST');
  expect(await request.headerValue('authorization')).toBe(`Bearer ${held}`);
  // The server ended the session too: the token opens nothing any more.
  await waitFor(async () => (await stack.system.call('GET', '/api/auth/me', { token: held })).status === 401);
  expect(errors).toEqual([]);
});

test('Sair logs out on this device even when the server cannot be reached', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  await page.route('**/api/auth/logout', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await header(page)
    .getByRole('button', { name: `Menu da conta de ${buyer.name}` })
    .click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  await header(page).getByRole('link', { name: 'Área de acesso' }).and(page.locator('[href="/login"]')).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(errors).toEqual([]);
});

test('a session outlives a network failure and a 503 while it is checked: it is asked again, not dropped', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  let checks = 0;
  await page.route('**/api/auth/me', (route) => {
    checks += 1;
    if (checks === 1) return route.abort('connectionrefused');
    if (checks === 2) {
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Serviço temporariamente indisponível. Tente novamente em instantes.' }),
      });
    }
    return route.continue();
  });
  await page.goto('/');

  await header(page)
    .getByRole('button', { name: `Menu da conta de ${buyer.name}` })
    .waitFor();
  expect(checks).toBe(3);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(buyer.token);
  expect(new URL(page.url()).pathname).toBe('/');
  expect(errors).toEqual([]);
});

test('a call on its way with a token another tab just renewed is made again with the renewed one: nobody is logged out', async () => {
  const buyer = await verifiedBuyer(stack.system);
  const { page, errors } = await open(await stack.newContext({ token: buyer.token }));
  let renewed: string | undefined;
  const carried: (string | null)[] = [];
  await page.route('**/api/auth/me', async (route) => {
    carried.push(route.request().headers().authorization ?? null);
    if (!renewed) {
      // Another tab renews the session meanwhile and stores its token: the one this call carries is superseded.
      const answer = await stack.system.call('POST', '/api/auth/renew', { token: buyer.token });
      renewed = answer.body.token as string;
      await page.evaluate((token) => localStorage.setItem('token', token), renewed);
    }
    return route.continue();
  });
  await page.goto('/');

  await header(page)
    .getByRole('button', { name: `Menu da conta de ${buyer.name}` })
    .waitFor();
  expect(carried).toEqual([`Bearer ${buyer.token}`, `Bearer ${renewed}`]);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(renewed);
  expect(new URL(page.url()).pathname).toBe('/');
  expect(errors).toEqual([]);
});

test('an admin page sends a visitor who is not logged in to the login page', async () => {
  const { page, requested } = await open(await stack.newContext());
  await page.goto('/verificar');

  // The toast is in the page's one notification area, named in Portuguese for screen readers.
  const notifications = page.getByRole('region', { name: 'Notificações (F8)' });
  await notifications.getByText('Você precisa fazer login para acessar esta página', { exact: true }).waitFor();
  await notifications.getByText('Acesso negado', { exact: true }).waitFor();
  await page.waitForURL('**/login');
  expect(requested.some((path) => path.startsWith('/admin/'))).toBe(false);
});

test('a session the server no longer accepts is dropped and the visitor is asked to log in again', async () => {
  const { page } = await open(await stack.newContext({ token: 'sessao-que-expirou' }));
  await page.goto('/eventos');

  await page.waitForURL('**/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await header(page).getByRole('link', { name: 'Área de acesso' }).getAttribute('href')).toBe('/login');
});

test('an unknown address shows the 404 page inside the shell', async () => {
  const { page } = await open(await stack.newContext());
  await page.goto('/pagina-que-nao-existe');

  await heading(page, '404 Page Not Found').waitFor();
  await header(page).getByRole('link', { name: 'Eventos', exact: true }).waitFor();
});

test('a remote that cannot be downloaded shows a retry, and the rest of the site keeps working', async () => {
  const context = await stack.newContext();
  await context.route('**/admin/**', (route) => route.abort());
  const { page } = await open(context);
  await page.goto('/admin-test');

  const failure = page.getByRole('alert').filter({ hasText: 'Não foi possível carregar esta página' });
  await failure.waitFor();
  const storefront = remotePageLoaded(page, 'storefront');
  await header(page).getByRole('link', { name: 'Eventos', exact: true }).click();
  await storefront;
  await failure.waitFor({ state: 'detached' });

  await page.goBack();
  await failure.waitFor();
  await context.unroute('**/admin/**');
  const admin = remotePageLoaded(page, 'admin');
  await failure.getByRole('button', { name: 'Tentar novamente' }).click();
  await admin;
  await failure.waitFor({ state: 'detached' });
  await heading(page).waitFor();
});

test('on a phone the menu offers Eventos, Resgate de cortesia and the access area', async () => {
  const { page } = await open(await stack.newContext());
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');

  await header(page).getByRole('button', { name: 'Abrir menu' }).click();
  const sheet = page.getByRole('navigation', { name: 'Menu' });
  await sheet.getByRole('link').first().waitFor();
  expect(await sheet.getByRole('link').allInnerTexts()).toEqual(['Eventos', 'Resgate de cortesia', 'Área de acesso']);
  await sheet.getByRole('button', { name: 'Fechar' }).click();
  await sheet.waitFor({ state: 'hidden' });
  await header(page).getByRole('button', { name: 'Abrir menu' }).click();
  await sheet.getByRole('link', { name: 'Resgate de cortesia' }).click();
  await page.waitForURL('**/cortesia');
  await sheet.waitFor({ state: 'hidden' });
});
