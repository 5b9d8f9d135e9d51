import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { parseQrText } from '@ticketing/proto';
import { readQrCode, waitFor } from '@ticketing/testkit';
import { ensureFrontendsBuilt } from '../../scripts/lib/frontends.ts';
import { adminEvent, staffMember, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';
import { blankVideo, launchCameraBrowser, qrSequenceVideo, showOnCamera } from '../../scripts/lib/fake-camera.ts';
// Fails a test whose pages break the Content-Security-Policy.
import { doorSessions, twoDays } from './support.ts';

/**
 * The door through a network drop, on a phone-sized page with the fake camera: readings decided on the device,
 * queued, synced when the network is back, double admissions on two devices reported to both, a login refused
 * mid-shift, and the door starting again from its service worker, offline and with the server stopped. The event is
 * a congress of two days and the door is set to day 2: holders who came in on day 1 come in again, once.
 */

const EVENT = 'Congresso de Farmácia Hospitalar';
const OTHER_EVENT = 'Simpósio de Farmacovigilância';
const OFFLINE_BADGE = /^offline — (\d+) leituras? a sincronizar$/;
/** A conflict on day 2, named by its day ('Dia 2 — 07/12'). */
const CONFLICT =
  /^Conflito em Dia 2 — \d{2}\/\d{2}: Beatriz Campos Rocha entrou em dois dispositivos \(às \d{2}:\d{2}:\d{2} e \d{2}:\d{2}:\d{2}\)$/;

interface Ticket {
  orderId: string;
  png: Buffer;
}

/** A phone at the door: a browser of its own, whose camera films `file` (replaced by `film`). */
interface Phone {
  browser: Awaited<ReturnType<typeof launchCameraBrowser>>;
  file: string;
}

/** The system the door talks to, started once for the file; undefined once the last test has stopped it. */
let system: Awaited<ReturnType<typeof startSystem>> | undefined;
let phone: Phone;
let dir: string;
let adminToken: string;
let eventId: string;
/** The congress's days: the door is set to day 2's. */
let day1: string;
let day2: string;
let tickets: Ticket[];
let otherTicket: Ticket;

/** Paid orders for `eventId`, `count` of them, bought through the storefront's API by a few buyers at once. */
async function buyTickets(event: string, count: number, buyers = 4): Promise<Ticket[]> {
  const running = system!;
  const bought = await Promise.all(
    Array.from({ length: Math.min(buyers, count) }, async (_, b) => {
      const buyer = await verifiedBuyer(running);
      const mine: Ticket[] = [];
      // One pending order per buyer and event: each is paid before the next.
      for (let i = b; i < count; i += buyers) {
        const order = await running.call('POST', '/api/orders', {
          token: buyer.token,
          body: { eventId: event, paymentMethod: 'pix' },
        });
        running.sandbox.confirm(order.body.order.asaasPaymentId);
        // Payment, order, ticket and back to the order: several hops on the bus, slow on a busy machine.
        const qr: string = await waitFor(
          async () => {
            const { status, body } = await running.call('GET', '/api/orders?page=1', { token: buyer.token });
            expect({ status, body }).toMatchObject({ status: 200 });
            return body.orders.find((found: { id: string }) => found.id === order.body.order.id)?.qrCodeData;
          },
          { timeoutMs: 60_000 },
        );
        mine.push({
          orderId: order.body.order.id,
          png: Buffer.from(qr.replace(/^data:image\/png;base64,/, ''), 'base64'),
        });
      }
      return mine;
    }),
  );
  return bought.flat();
}

beforeAll(async () => {
  await ensureFrontendsBuilt();
  system = await startSystem();
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT, maxAttendees: 40, ...twoDays() }));
  [day1, day2] = (await doorSessions(system, eventId, adminToken)).map((session) => session.id) as [string, string];
  const other = await adminEvent(system, {
    title: OTHER_EVENT,
    maxAttendees: 5,
    date: new Date(Date.now() + 40 * 86_400_000).toISOString(),
  });
  tickets = await buyTickets(eventId, 24);
  [otherTicket] = (await buyTickets(other.eventId, 1)) as [Ticket];
  dir = await mkdtemp(join(tmpdir(), 'porta-offline-'));
  phone = await newPhone('camera');
}, 240_000);
afterAll(async () => {
  await phone?.browser.close();
  await system?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The admission to `session` (day 2 unless said) each order's ticket holds: when, and on which device; null for none. */
async function admissions(
  orders: Ticket[],
  session = day2,
): Promise<{ usedAt: Date | null; usedDevice: string | null }[]> {
  const schema = system!.ticketsSchema;
  const { rows } = await system!.orders.db.raw(
    `select order_id, (admissions -> ? ->> 'at')::timestamptz as used_at, admissions -> ? ->> 'device' as used_device
     from "${schema}".tickets where order_id = any(?)`,
    [session, session, orders.map((ticket) => ticket.orderId)],
  );
  const byOrder = new Map(
    (rows as { order_id: string; used_at: Date | null; used_device: string | null }[]).map((row) => [
      row.order_id,
      { usedAt: row.used_at, usedDevice: row.used_device },
    ]),
  );
  return orders.map((ticket) => byOrder.get(ticket.orderId) ?? { usedAt: null, usedDevice: null });
}

/** When each reading of the order's ticket on day 2 was read at the door, as the server recorded them, oldest first. */
async function readTimes(order: Ticket): Promise<Date[]> {
  const schema = system!.ticketsSchema;
  const { rows } = await system!.orders.db.raw(
    `select s.read_at from "${schema}".scans s join "${schema}".tickets t on t.id = s.ticket_id
     where t.order_id = ? and s.session_id = ? and s.read_at is not null order by s.read_at`,
    [order.orderId, day2],
  );
  return (rows as { read_at: Date }[]).map((row) => row.read_at);
}

/** A phone filming nothing yet. */
async function newPhone(name: string): Promise<Phone> {
  const file = join(dir, `${name}.y4m`);
  await copyFile(await blankVideo(dir), file);
  return { browser: await launchCameraBrowser(system!.gatewayUrl, file), file };
}

/**
 * Shows `pngs` to the phone's camera, one after the other, from its next camera start on (a camera is one device
 * per browser: every page of a phone films the same).
 */
async function film(
  pngs: Buffer[],
  { secondsEach, gapSeconds, on = phone }: { secondsEach?: number; gapSeconds?: number; on?: Phone } = {},
) {
  const name = `video-${Date.now()}`;
  await showOnCamera(
    on.file,
    pngs.length > 0 ? await qrSequenceVideo(pngs, dir, { secondsEach, gapSeconds, name }) : await blankVideo(dir, name),
  );
}

/** Verdicts the page put on screen, however briefly, in order. */
const recordVerdicts = (page: Page) =>
  page.addInitScript(() => {
    const window = globalThis as unknown as {
      shownVerdicts: string[];
      document: unknown;
      MutationObserver: new (
        callback: (records: { addedNodes: Iterable<{ matches?(s: string): boolean; textContent: string }> }[]) => void,
      ) => {
        observe(target: unknown, options: object): void;
      };
    };
    window.shownVerdicts = [];
    new window.MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node.matches?.('.verdict[role="alert"]')) window.shownVerdicts.push(node.textContent);
    }).observe(window.document, { childList: true, subtree: true });
  });

const shownVerdicts = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { shownVerdicts: string[] }).shownVerdicts);

/** Waits until the page has shown `count` verdicts matching `pattern`. */
async function verdictsShown(page: Page, pattern: RegExp, count: number, timeout = 20_000): Promise<string[]> {
  await page
    .waitForFunction(
      ([source, wanted]) =>
        (globalThis as unknown as { shownVerdicts: string[] }).shownVerdicts.filter((text) =>
          new RegExp(source as string).test(text),
        ).length >= (wanted as number),
      [pattern.source, count] as const,
      { timeout },
    )
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nverdicts shown: ${JSON.stringify(await shownVerdicts(page))}`);
    });
  return (await shownVerdicts(page)).filter((text) => pattern.test(text));
}

/** A door page for the event, its list on the device, its service worker in control; the camera films nothing. */
async function openDoor(on = phone, token = adminToken): Promise<Page> {
  await film([], { on });
  const page = await on.browser.newPage(token);
  await recordVerdicts(page);
  await page.goto('/verificar');
  await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
  await page.getByText('Aponte a câmera para o QR Code do ingresso').waitFor({ timeout: 15_000 });
  await chooseEvent(page);
  // The service worker controls the page and keeps what the door needs to start again without a server.
  await page.waitForFunction(async () => {
    // The test code is typed without the DOM: the little of it used here.
    const window = globalThis as unknown as {
      caches: { open(name: string): Promise<{ match(url: string): Promise<unknown> }> };
      navigator: { serviceWorker: { controller: unknown } };
    };
    const kept = await window.caches.open('porta-v1');
    const answers = await Promise.all(['/verificar', '/api/auth/me', '/api/door/events'].map((url) => kept.match(url)));
    return window.navigator.serviceWorker.controller !== null && answers.every(Boolean);
  });
  return page;
}

/** Picks the test's event and day 2 at the door, and waits until its ticket list is on the device. */
async function chooseEvent(page: Page) {
  await eventsListed(page);
  await showOptions(page);
  await page.getByLabel('Evento desta entrada').selectOption(eventId);
  // Day 1's door is the one open: day 2 is chosen.
  await page.getByLabel('Sessão desta entrada').selectOption(day2);
  await page.getByText('Pronto para ler sem internet').waitFor({ timeout: 15_000 });
}

/** The reading of `ticket` the phone kept has reached the server (for `session`), and nothing is left to send. */
async function readingSent(page: Page, ticket: Ticket, session = day2) {
  await waitFor(async () => (await admissions([ticket], session))[0]!.usedAt, { timeoutMs: 30_000 });
  await syncBadge(page).waitFor({ state: 'detached', timeout: 20_000 });
}

/** The holders came in on day 1, through another phone at day 1's door; resolves to when. */
async function cameOnDay1(orders: Ticket[]): Promise<(Date | null)[]> {
  const readAt = new Date().toISOString();
  const sent = await system!.call('POST', '/api/door/readings', {
    token: adminToken,
    body: {
      deviceId: 'portaria-dia-1',
      eventId,
      sessionId: day1,
      readings: orders.map((ticket) => ({
        readingId: crypto.randomUUID(),
        claims: parseQrText(readQrCode(ticket.png)!)!.claims,
        readAt,
        admitted: true,
      })),
    },
  });
  expect(sent.body.results.map((result: { outcome: string }) => result.outcome)).toEqual(orders.map(() => 'recorded'));
  return (await admissions(orders, day1)).map((admission) => admission.usedAt);
}

/** The list of events has arrived (the choice is enabled): the door's choice no longer changes by itself. */
const eventsListed = (page: Page) =>
  page.locator('.scanner__options select:enabled').first().waitFor({ state: 'attached', timeout: 30_000 });

/** Unfolds 'Opções da leitura' under the camera. */
async function showOptions(page: Page) {
  const options = page.locator('details.scanner__options');
  // Dispatched to the summary itself: a verdict may be covering the screen just then.
  if ((await options.getAttribute('open')) === null) await page.getByText('Opções da leitura').dispatchEvent('click');
}

/**
 * Starts the page's camera again (it then films the camera file as it is now) by switching the barcode formats, on
 * and then off at the next call: a ticket's QR code reads the same either way.
 */
async function restartCamera(page: Page) {
  const formats = page.getByLabel(/^Ler também códigos de barras/);
  await showOptions(page);
  // Dispatched to the box itself: a verdict may be covering the screen just then.
  await formats.dispatchEvent('click');
  await page.getByText('Aponte a câmera para o QR Code do ingresso').waitFor({ timeout: 15_000 });
}

const offlineBadge = (page: Page) => page.getByRole('status').filter({ hasText: OFFLINE_BADGE });

/** The badge of readings still to send, offline or syncing. */
const syncBadge = (page: Page) => page.locator('.door-status__badge');

async function queuedCount(page: Page): Promise<number> {
  return Number(OFFLINE_BADGE.exec((await offlineBadge(page).textContent())!.trim())![1]);
}

test('the network drops mid-queue on day 2: 20 holders who came on day 1 are let in from the list on the phone, and all 20 reach the server', async () => {
  const queue = tickets.slice(0, 20);
  const onDay1 = await cameOnDay1(queue);
  expect(onDay1.every(Boolean)).toBe(true);
  const page = await openDoor();
  try {
    await page.context().setOffline(true);
    // A second between holders: a verdict slowed by a busy phone does not cover the next ticket's turn.
    await film(
      queue.map((ticket) => ticket.png),
      { secondsEach: 1.5, gapSeconds: 1 },
    );
    await restartCamera(page);

    // The queue is filmed in a loop: a ticket missed once is read on the next pass (a phone busy with the other
    // suites misses more: up to three passes and a half).
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 20, 180_000);
    await offlineBadge(page).waitFor();
    expect(await queuedCount(page)).toBeGreaterThanOrEqual(20);
    expect((await admissions(queue)).filter((admission) => admission.usedAt)).toHaveLength(0);

    // Back online by itself: the queue is sent, and the badge goes.
    await page.context().setOffline(false);
    await offlineBadge(page).waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Pronto para ler sem internet').waitFor({ timeout: 20_000 });
    expect((await admissions(queue)).filter((admission) => admission.usedAt)).toHaveLength(20);
    // Day 1's entrances stand as they were.
    expect((await admissions(queue, day1)).map((admission) => admission.usedAt)).toEqual(onDay1);
  } finally {
    await page.context().close();
  }
}, 280_000);

test('two phones offline let the same holder in on day 2: after syncing both show the conflict of day 2, the first admission stands', async () => {
  const [ticket] = tickets.slice(20, 21) as [Ticket];
  // In on day 1 as well: no conflict of day 1.
  await cameOnDay1([ticket]);
  const otherPhone = await newPhone('segundo');
  const first = await openDoor();
  const second = await openDoor(otherPhone);
  try {
    await first.context().setOffline(true);
    await second.context().setOffline(true);
    await film([ticket.png]);
    await restartCamera(first);
    await verdictsShown(first, /^✓ Beatriz Campos Rocha/, 1);
    await film([ticket.png], { on: otherPhone });
    await restartCamera(second);
    await verdictsShown(second, /^✓ Beatriz Campos Rocha/, 1);

    await first.context().setOffline(false);
    await offlineBadge(first).waitFor({ state: 'detached', timeout: 20_000 });
    await second.context().setOffline(false);
    await second.getByText(CONFLICT).waitFor({ timeout: 20_000 });
    // The first phone hears of it with its next refresh of the ticket list.
    await first.getByText(CONFLICT).waitFor({ timeout: 20_000 });

    const [admission] = await admissions([ticket]);
    const [earliest] = await readTimes(ticket);
    const firstDevice = await first.evaluate(() => localStorage.getItem('door.deviceId'));
    expect(admission!.usedAt).toEqual(earliest);
    expect(admission!.usedDevice).toBe(firstDevice);
    expect(await first.getByRole('list', { name: 'Conflitos' }).getByRole('listitem').count()).toBe(1);
  } finally {
    await first.context().close();
    await otherPhone.browser.close();
  }
}, 120_000);

test('a ticket for another event is refused by name, online and offline', async () => {
  const page = await openDoor();
  const wrongEvent = new RegExp(`^✕Ingresso de outro evento: ${OTHER_EVENT}`);
  try {
    await film([otherTicket.png]);
    await restartCamera(page);
    await verdictsShown(page, wrongEvent, 1);
    await offlineBadge(page).waitFor({ state: 'detached' });

    await page.context().setOffline(true);
    // The same code is read again after its pause, now decided on the phone and queued.
    await verdictsShown(page, wrongEvent, 2);
    await offlineBadge(page).waitFor();
  } finally {
    await page.context().close();
  }
}, 90_000);

test('a reload while offline keeps the queue, which is sent once the network is back', async () => {
  const [ticket] = tickets.slice(21, 22) as [Ticket];
  const page = await openDoor();
  try {
    await page.context().setOffline(true);
    await film([ticket.png]);
    await restartCamera(page);
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 1);
    await film([]);
    await restartCamera(page);
    await offlineBadge(page).waitFor();
    const queued = await queuedCount(page);

    await page.reload();
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
    await offlineBadge(page).waitFor();
    expect(await queuedCount(page)).toBe(queued);
    await page.getByRole('region', { name: 'Últimas leituras' }).getByText('Entrada liberada').waitFor();

    await page.context().setOffline(false);
    await waitFor(async () => (await admissions([ticket]))[0]!.usedAt, { timeoutMs: 30_000 });
    await syncBadge(page).waitFor({ state: 'detached', timeout: 20_000 });
  } finally {
    await page.context().close();
  }
}, 90_000);

test('a session refused mid-shift: a banner asks for a new login, and the door keeps reading and queueing', async () => {
  const [ticket] = tickets.slice(23, 24) as [Ticket];
  const login = await system!.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const page = await openDoor(phone, login.body.token);
  try {
    await system!.call('POST', '/api/auth/logout', { token: login.body.token });
    const banner = page.getByRole('alert').filter({ hasText: 'Sua sessão expirou' });
    await banner.waitFor({ timeout: 20_000 });
    await banner.getByRole('link', { name: 'Entre novamente' }).waitFor();

    await film([ticket.png]);
    await restartCamera(page);
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 1);
    await offlineBadge(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verificar');
    expect((await admissions([ticket]))[0]!.usedAt).toBeNull();
  } finally {
    await page.context().close();
  }
}, 90_000);

/** What the door left on the phone, read in the page: IndexedDB databases, the unsynced queue, Cache Storage. */
async function deviceData(page: Page) {
  return page.evaluate(async () => {
    // The test code is typed without the DOM: the little of it used here.
    type Request<T> = { result: T; onsuccess: () => void; onerror: () => void };
    const window = globalThis as unknown as {
      indexedDB: {
        databases(): Promise<{ name: string }[]>;
        open(name: string): Request<{
          transaction(store: string): { objectStore(store: string): { getAll(): Request<unknown[]> } };
          close(): void;
        }>;
      };
      caches: {
        keys(): Promise<string[]>;
        open(name: string): Promise<{ keys(): Promise<{ url: string }[]>; match(url: string): Promise<Response> }>;
      };
      localStorage: { getItem(key: string): string | null };
    };
    const done = <T>(request: Request<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = reject;
      });
    const databases = (await window.indexedDB.databases()).map(({ name }) => name).sort();
    const all = async (database: string, store: string) => {
      if (!databases.includes(database)) return [];
      const db = await done(window.indexedDB.open(database));
      const found = await done(db.transaction(store).objectStore(store).getAll());
      db.close();
      return found;
    };
    const queue = await all('porta', 'queue');
    const tickets = await all('porta-dados', 'tickets');
    const cached: { url: string; body: string }[] = [];
    for (const name of await window.caches.keys()) {
      const cache = await window.caches.open(name);
      for (const { url } of await cache.keys()) cached.push({ url, body: await (await cache.match(url)).text() });
    }
    const kept = (key: string) => window.localStorage.getItem(key);
    return {
      databases,
      queue,
      tickets,
      cached,
      token: kept('token'),
      events: kept('door.events'),
      device: kept('door.deviceId'),
    };
  });
}

test('a door phone signed out offline keeps nothing of its staffer for the next person, and loses no reading', async () => {
  const [ticket] = await buyTickets(eventId, 1);
  // A session of its own: the doors opened before renewed the admin's first token.
  const admin = await system!.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const staffer = await staffMember(system!, admin.body.token, ['doorStaff']);
  const next = await staffMember(system!, admin.body.token, ['doorStaff']);
  const assigned = await system!.call('PUT', '/api/admin/users/door-staff', {
    token: admin.body.token,
    body: { eventId, emails: [staffer.email, next.email] },
  });
  expect(assigned.status).toBe(200);
  const nextId = (await system!.call('GET', '/api/auth/me', { token: next.token })).body.id as string;
  const personal = [staffer.cpf, staffer.cpf.replace(/\D/g, ''), staffer.phone, staffer.address, staffer.email];

  const page = await openDoor(phone, staffer.token);
  try {
    // The door's offline profile: a name and roles, none of the staffer's CPF, phone, address or e-mail.
    const profile = (await deviceData(page)).cached.find(({ url }) => new URL(url).pathname === '/api/auth/me')!;
    expect(Object.keys(JSON.parse(profile.body)).sort()).toEqual(['id', 'isAdmin', 'name', 'roles']);
    for (const data of personal) expect(profile.body).not.toContain(data);

    await page.context().setOffline(true);
    await film([ticket!.png]);
    await restartCamera(page);
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 1);
    await offlineBadge(page).waitFor();
    const readingsShown = page.getByRole('region', { name: 'Últimas leituras' });
    await readingsShown.getByText('Beatriz Campos Rocha').first().waitFor();

    // Signed out without a network: the phone forgets the staffer's door at once.
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Menu da conta de / })
      .click();
    await Promise.all([
      page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() }),
      page.getByRole('menuitem', { name: 'Sair' }).click(),
    ]);

    // The next person opens the door, still offline: nothing of the staffer's comes back.
    await film([]);
    await page.goto('/verificar').catch(() => {});
    // Offline the browser puts up its own error page once the navigation fails: read whatever stands then.
    const shown = await waitFor(() => page.content().catch(() => undefined));
    expect(shown).not.toContain('Beatriz Campos Rocha');

    // With the network back, nobody signed in: the login page, and on the device only the readings still owed to
    // the server, without names or QR texts.
    await page.context().setOffline(false);
    await page.goto('/verificar');
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
    const left = await deviceData(page);
    expect(left.databases).toEqual(['porta']);
    expect(left.token).toBeNull();
    expect(left.events).toBeNull();
    expect(left.device).toMatch(/^[0-9a-f]{32}$/);
    expect(left.queue.length).toBeGreaterThanOrEqual(1);
    for (const reading of left.queue)
      expect(Object.keys(reading as object).sort()).toEqual([
        'admitted',
        'claims',
        'eventId',
        'readAt',
        'readingId',
        'sessionId',
      ]);
    expect(JSON.stringify(left.queue)).not.toMatch(/Beatriz|T1\./);
    expect(left.cached.filter(({ url }) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);

    // The next door staffer signs in: a door of their own, and the reading the staffer left is sent under it.
    await page.getByLabel('E-mail').fill(next.email);
    await page.getByLabel('Senha', { exact: true }).fill(next.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto('/verificar');
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
    await chooseEvent(page);
    await readingSent(page, ticket!);
    expect(await readingsShown.count()).toBe(0);
    expect(await page.getByRole('main').innerText()).not.toContain('Beatriz Campos Rocha');

    // Acknowledged readings leave the queue; what is kept now is the next staffer's.
    const now = await deviceData(page);
    expect(now.queue).toEqual([]);
    const nextProfile = now.cached.find(({ url }) => new URL(url).pathname === '/api/auth/me');
    if (nextProfile) expect(JSON.parse(nextProfile.body).id).toBe(nextId);
  } finally {
    await page.context().close();
  }
}, 150_000);

test('a phone that queued readings before they were kept as claims sends them all, and keeps no QR text', async () => {
  const [ticket] = await buyTickets(eventId, 1);
  const qrText = readQrCode(ticket!.png)!;
  await film([]);
  const page = await phone.browser.newPage(adminToken);
  try {
    await page.goto('/');
    // The door's one database as it was: a queued admission and a last reading with the QR text, the ticket list.
    await page.evaluate(
      ([text, event]) =>
        new Promise<void>((resolve, reject) => {
          type Store = { put(value: object): void; createIndex(name: string, keyPath: string): void };
          const window = globalThis as unknown as {
            indexedDB: {
              open(
                name: string,
                version: number,
              ): {
                result: {
                  createObjectStore(name: string, options: { keyPath: string }): Store;
                  close(): void;
                };
                transaction: { objectStore(name: string): Store };
                onupgradeneeded: () => void;
                onsuccess: () => void;
                onerror: () => void;
              };
            };
          };
          const request = window.indexedDB.open('porta', 1);
          request.onupgradeneeded = () => {
            const db = request.result;
            for (const name of ['keys', 'revisions']) db.createObjectStore(name, { keyPath: 'eventId' });
            db.createObjectStore('tickets', { keyPath: 'id' }).createIndex('byEvent', 'eventId');
            db.createObjectStore('readings', { keyPath: 'readingId' }).createIndex('byReadAt', 'readAt');
            db.createObjectStore('conflicts', { keyPath: 'ticketId' });
            const queue = db.createObjectStore('queue', { keyPath: 'readingId' });
            queue.createIndex('byEvent', 'eventId');
            queue.createIndex('byTicket', 'ticketId');
            const reading = { readingId: crypto.randomUUID(), eventId: event, qrCodeData: text };
            const readAt = new Date().toISOString();
            queue.put({ ...reading, readAt, admitted: true, ticketId: null });
            request.transaction
              .objectStore('readings')
              .put({ ...reading, readAt, admitted: true, holder: 'Beatriz Campos Rocha', code: 'valid' });
          };
          request.onsuccess = () => {
            request.result.close();
            resolve();
          };
          request.onerror = reject;
        }),
      [qrText, eventId] as const,
    );

    await page.goto('/verificar');
    await chooseEvent(page);
    // Read before readings kept their session: it was for the one whose door was open then, day 1.
    await readingSent(page, ticket!, day1);

    const left = await deviceData(page);
    expect(left.queue).toEqual([]);
    const stores = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const request = (
            globalThis as unknown as {
              indexedDB: {
                open(name: string): {
                  result: { objectStoreNames: Iterable<string>; close(): void };
                  onsuccess(): void;
                };
              };
            }
          ).indexedDB.open('porta');
          request.onsuccess = () => {
            resolve([...request.result.objectStoreNames]);
            request.result.close();
          };
        }),
    );
    expect(stores).toEqual(['queue']);
    expect(await page.getByRole('main').innerText()).not.toContain('Beatriz Campos Rocha');
  } finally {
    await page.context().close();
  }
}, 90_000);

test('the ticket list of an event the door no longer checks in is deleted when the door starts again', async () => {
  const admin = await system!.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const staffer = await staffMember(system!, admin.body.token, ['doorStaff']);
  const assign = async (emails: string[]) => {
    const assigned = await system!.call('PUT', '/api/admin/users/door-staff', {
      token: admin.body.token,
      body: { eventId, emails },
    });
    expect(assigned.status).toBe(200);
    // The door's list of events learns it from the bus.
    await waitFor(async () => {
      const { body } = await system!.call('GET', '/api/door/events', { token: staffer.token });
      return (body as { id: string }[]).some((event) => event.id === eventId) === emails.length > 0;
    });
  };
  await assign([staffer.email]);
  const page = await openDoor(phone, staffer.token);
  try {
    expect((await deviceData(page)).tickets.length).toBeGreaterThan(0);
    await assign([]);
    await page.reload();
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
    await waitFor(async () => (await deviceData(page)).tickets.length === 0, { timeoutMs: 15_000 });
  } finally {
    await page.context().close();
  }
}, 90_000);

test('the door worker of a new release deletes what an older one kept, and keeps the door in its own cache', async () => {
  const page = await phone.browser.newPage(adminToken);
  try {
    await page.goto('/');
    // The test code is typed without the DOM: the little of it used here.
    type Window = {
      caches: {
        keys(): Promise<string[]>;
        open(
          name: string,
        ): Promise<{ put(url: string, answer: unknown): Promise<void>; match(url: string): Promise<unknown> }>;
      };
      navigator: { serviceWorker: { controller: unknown } };
      Response: new (body: string) => unknown;
    };
    await page.evaluate(async () => {
      const window = globalThis as unknown as Window;
      const older = await window.caches.open('porta-v0');
      await older.put('/verificar', new window.Response('<!doctype html><title>porta antiga</title>'));
    });
    await page.goto('/verificar');
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(async () => {
      const window = globalThis as unknown as Window;
      const kept = await (await window.caches.open('porta-v1')).match('/verificar');
      return window.navigator.serviceWorker.controller !== null && Boolean(kept);
    });
    expect(await page.evaluate(() => (globalThis as unknown as Window).caches.keys())).toEqual(['porta-v1']);
  } finally {
    await page.context().close();
  }
}, 90_000);

// Last: it stops the whole system.
test('with the server stopped, a reload still opens the door with its event, its list and its queue', async () => {
  const [ticket] = tickets.slice(22, 23) as [Ticket];
  const page = await openDoor();
  const running = system!;
  system = undefined;
  await running.stop();
  // The gateway's port stays taken and refuses every connection, as a server that is down does: no other
  // server started meanwhile may answer the door in its place.
  const down = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => down.listen(Number(new URL(running.gatewayUrl).port), '127.0.0.1', resolve));
  try {
    await page.reload();
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor({ timeout: 30_000 });
    await page.getByText('Aponte a câmera para o QR Code do ingresso').waitFor({ timeout: 15_000 });
    await eventsListed(page);
    await showOptions(page);
    expect(await page.getByLabel('Evento desta entrada').inputValue()).toBe(eventId);
    expect(await page.getByLabel('Sessão desta entrada').inputValue()).toBe(day2);

    await film([ticket.png]);
    await restartCamera(page);
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 1);
    await offlineBadge(page).waitFor();
    expect(await queuedCount(page)).toBeGreaterThanOrEqual(1);
  } finally {
    await page.context().close();
    await new Promise((resolve) => down.close(resolve));
  }
}, 90_000);
