import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '@ticketing/platform/testing';
import { ensureFrontendsBuilt } from '../../scripts/lib/frontends.ts';
import { adminEvent, startSystem, verifiedBuyer } from '../api/support.ts';
import { blankVideo, launchCameraBrowser, qrSequenceVideo, showOnCamera } from './fake-camera.ts';

/**
 * The door through a network drop, on a phone-sized page with the fake camera: readings decided on the device,
 * queued, synced when the network is back, double admissions on two devices reported to both, a session refused
 * mid-shift, and the door starting again from its service worker, offline and with the server stopped.
 */

const EVENT = 'Congresso de Farmácia Hospitalar';
const OTHER_EVENT = 'Simpósio de Farmacovigilância';
const OFFLINE_BADGE = /^offline — (\d+) leituras? a sincronizar$/;
const CONFLICT =
  /^Conflito: Beatriz Campos Rocha entrou em dois dispositivos \(às \d{2}:\d{2}:\d{2} e \d{2}:\d{2}:\d{2}\)$/;

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
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT, maxAttendees: 40 }));
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

/** The admission each order's ticket holds: when, and on which device; null for a ticket not used. */
async function admissions(orders: Ticket[]): Promise<{ usedAt: Date | null; usedDevice: string | null }[]> {
  const schema = system!.ticketsSchema;
  const { rows } = await system!.orders.db.raw(
    `select order_id, used_at, used_device from "${schema}".tickets where order_id = any(?)`,
    [orders.map((ticket) => ticket.orderId)],
  );
  const byOrder = new Map(
    (rows as { order_id: string; used_at: Date | null; used_device: string | null }[]).map((row) => [
      row.order_id,
      { usedAt: row.used_at, usedDevice: row.used_device },
    ]),
  );
  return orders.map((ticket) => byOrder.get(ticket.orderId) ?? { usedAt: null, usedDevice: null });
}

/** When each reading of the order's ticket was read at the door, as the server recorded them, oldest first. */
async function readTimes(order: Ticket): Promise<Date[]> {
  const schema = system!.ticketsSchema;
  const { rows } = await system!.orders.db.raw(
    `select s.read_at from "${schema}".scans s join "${schema}".tickets t on t.id = s.ticket_id
     where t.order_id = ? and s.read_at is not null order by s.read_at`,
    [order.orderId],
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
  await eventsListed(page);
  await showOptions(page);
  await page.getByLabel('Evento desta entrada').selectOption(eventId);
  await page.getByText('Pronto para ler sem internet').waitFor({ timeout: 15_000 });
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

/** The list of events has arrived (the choice is enabled): the door's choice no longer changes by itself. */
const eventsListed = (page: Page) =>
  page.locator('.scanner__options select:enabled').waitFor({ state: 'attached', timeout: 30_000 });

/** Unfolds 'Opções da leitura' under the camera. */
async function showOptions(page: Page) {
  const options = page.locator('details.scanner__options');
  // Dispatched to the summary itself: a verdict may be covering the screen just then.
  if ((await options.getAttribute('open')) === null) await page.getByText('Opções da leitura').dispatchEvent('click');
}

/** Starts the page's camera again (it then films the camera file as it is now). */
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

test('the network drops mid-queue: 20 holders are let in from the list on the phone, and all 20 reach the server', async () => {
  const page = await openDoor();
  const queue = tickets.slice(0, 20);
  try {
    await page.context().setOffline(true);
    // A second between holders: a verdict slowed by a busy phone does not cover the next ticket's turn.
    await film(
      queue.map((ticket) => ticket.png),
      { secondsEach: 1.5, gapSeconds: 1 },
    );
    await restartCamera(page);

    // The queue is filmed in a loop: a ticket missed once is read on the next pass.
    await verdictsShown(page, /^✓ Beatriz Campos Rocha/, 20, 110_000);
    await offlineBadge(page).waitFor();
    expect(await queuedCount(page)).toBeGreaterThanOrEqual(20);
    expect((await admissions(queue)).filter((admission) => admission.usedAt)).toHaveLength(0);

    // Back online by itself: the queue is sent, and the badge goes.
    await page.context().setOffline(false);
    await offlineBadge(page).waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByText('Pronto para ler sem internet').waitFor({ timeout: 20_000 });
    expect((await admissions(queue)).filter((admission) => admission.usedAt)).toHaveLength(20);
  } finally {
    await page.context().close();
  }
}, 210_000);

test('two phones offline let the same holder in: after syncing both show the conflict, the first admission stands', async () => {
  const [ticket] = tickets.slice(20, 21) as [Ticket];
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
    // The door renews its session as it opens: the token to end is the one it holds now.
    const token = () => localStorage.getItem('token');
    await page.waitForFunction((first) => localStorage.getItem('token') !== first, login.body.token as string);
    await system!.call('POST', '/api/auth/logout', { token: (await page.evaluate(token))! });
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
