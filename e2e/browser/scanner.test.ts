import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, paidTicket, verifiedBuyer } from '../../scripts/lib/system.ts';
import {
  blankVideo,
  launchCameraBrowser,
  qrSequenceVideo,
  qrVideo,
  showOnCamera,
} from '../../scripts/lib/fake-camera.ts';
import { congressOfTwoDays, startBrowserStack, type BrowserStack } from './support.ts';

const EVENT_TITLE = 'Workshop de Farmácia Oncológica';
/** The door's decoders, downloaded as a chunk of their own by the scanner page only. */
const DECODER = /\/door\/assets\/qr-decoders\.\w+\.js$/;

let stack: BrowserStack;
let dir: string;
let video: string;
let adminToken: string;
let orderId: string;
let holder: string;
beforeAll(async () => {
  stack = await startBrowserStack();
  const { system } = stack;
  let eventId: string;
  ({ eventId, adminToken } = await adminEvent(system, { title: EVENT_TITLE, maxAttendees: 20 }));
  const buyer = await verifiedBuyer(system);
  holder = buyer.name;
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  orderId = bought.body.order.id;
  system.sandbox.confirm(bought.body.order.asaasPaymentId);
  // The paid order carries the ticket's QR image, the same one the ticket e-mail attaches.
  const qrCodeData: string = await waitFor(async () => {
    const { body } = await system.call('GET', '/api/orders?page=1', { token: buyer.token });
    return body.orders.find((order: { id: string }) => order.id === orderId)?.qrCodeData;
  });
  dir = await mkdtemp(join(tmpdir(), 'porta-'));
  video = await qrVideo(Buffer.from(qrCodeData.replace(/^data:image\/png;base64,/, ''), 'base64'), dir);
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every reading the door recorded for the order's ticket (the tickets service's own table), oldest first. */
async function scansOf(order: string): Promise<string[]> {
  return (await readingsOf(order)).map((reading) => reading.code);
}

/** Every reading the door recorded for the order's ticket, oldest first: its verdict and the session it was for. */
async function readingsOf(order: string): Promise<{ code: string; sessionId: string }[]> {
  const db = stack.system.orders.db;
  const { rows: schemas } = await db.raw(
    `select table_schema from information_schema.tables where table_name = 'scans' and table_schema like 'tickets\\_%'`,
  );
  for (const { table_schema: schema } of schemas as { table_schema: string }[]) {
    const { rows } = await db.raw(
      `select s.code, s.session_id from "${schema}".scans s join "${schema}".tickets t on t.id = s.ticket_id
       where t.order_id = ? order by s.scanned_at`,
      [order],
    );
    if (rows.length > 0)
      return rows.map((row: { code: string; session_id: string }) => ({ code: row.code, sessionId: row.session_id }));
  }
  return [];
}

/** The little of the browser's media API the checks below touch (the test code is typed without the DOM). */
interface CameraWindow {
  cameraStreams: { getTracks(): { readyState: string }[] }[];
  navigator: { mediaDevices: { getUserMedia(constraints: unknown): Promise<CameraWindow['cameraStreams'][number]> } };
}

/** Records the camera streams the page opens, to tell whether it let them go. */
const recordStreams = (page: Page) =>
  page.addInitScript(() => {
    const window = globalThis as unknown as CameraWindow;
    const devices = window.navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    window.cameraStreams = [];
    devices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      window.cameraStreams.push(stream);
      return stream;
    };
  });

/** A verdict as it appeared on the screen: its headline, all its text, and when (ms since the epoch). */
interface ShownVerdict {
  headline: string;
  text: string;
  at: number;
}

/**
 * Keeps every verdict the page puts on screen, however briefly (800 ms for a holder let in): the sequence and its
 * timing are then checked at leisure.
 */
const recordVerdicts = (page: Page) =>
  page.addInitScript(() => {
    type Node = {
      textContent: string;
      matches?(selector: string): boolean;
      querySelector(selector: string): { textContent: string } | null;
    };
    const window = globalThis as unknown as {
      shownVerdicts: ShownVerdict[];
      document: unknown;
      MutationObserver: new (callback: (records: { addedNodes: Iterable<Node> }[]) => void) => {
        observe(target: unknown, options: object): void;
      };
    };
    window.shownVerdicts = [];
    new window.MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!node.matches?.('.verdict[role="alert"]')) continue;
          const headline = node.querySelector('.verdict__headline')?.textContent ?? '';
          window.shownVerdicts.push({ headline, text: node.textContent, at: Date.now() });
        }
      }
    }).observe(window.document, { childList: true, subtree: true });
  });

const shownVerdicts = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { shownVerdicts: ShownVerdict[] }).shownVerdicts);

/** Every camera stream the page opened has been stopped. */
/** Waits for the door to say the ticket was used already (the holder read a second time); says what it showed else. */
const usedShown = (page: Page) =>
  page
    .getByRole('alert')
    .getByText(/^Ingresso já utilizado em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}$/)
    .waitFor({ timeout: 20_000 })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nverdicts shown: ${JSON.stringify(await shownVerdicts(page))}`);
    });

const camerasReleased = () => {
  const streams = (globalThis as unknown as CameraWindow).cameraStreams;
  return (
    streams.length > 0 && streams.every((stream) => stream.getTracks().every((track) => track.readyState === 'ended'))
  );
};

test('the door scans the real ticket: the holder is let in once, the next reading says it was used', async () => {
  const camera = await launchCameraBrowser(stack.system.gatewayUrl, video);
  try {
    const page = await camera.newPage(adminToken);
    const decoder: string[] = [];
    page.on('request', (request) => DECODER.test(new URL(request.url()).pathname) && decoder.push(request.url()));
    await recordStreams(page);
    await recordVerdicts(page);

    // Other pages, even an admin's, never download the decoder.
    await page.goto('/');
    await page.getByRole('main').getByRole('heading').first().waitFor();
    await page.goto('/cortesia-admin');
    await page.getByRole('heading', { name: 'Gerenciar Links de Cortesia' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(decoder).toEqual([]);

    // Held back until the page has said it is starting the camera.
    let releaseDecoder!: () => void;
    const startingSeen = new Promise<void>((resolve) => (releaseDecoder = resolve));
    await page.route(DECODER, async (route) => {
      await startingSeen;
      await route.continue();
    });
    // On a phone the admin's pages are in the avatar menu.
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Menu da conta de / })
      .click();
    await page.getByRole('menuitem', { name: 'Verificar QR' }).click();
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor();
    await page.getByText('Iniciando câmera...').waitFor();
    releaseDecoder();
    await page.getByText('Aponte a câmera para o QR Code do ingresso').waitFor();
    expect(decoder).toHaveLength(1);
    // An event of one session: nothing to choose but the event.
    expect(await page.getByLabel('Sessão desta entrada').count()).toBe(0);

    // The ticket stays in front of the camera: after the holder's 800 ms on screen, the same code is ignored for
    // 3 s, then read again.
    await usedShown(page);
    const [admitted, used] = await shownVerdicts(page);
    expect(admitted!.headline).toBe(`✓ ${holder}`);
    expect(used!.headline).toMatch(/^Ingresso já utilizado em /);
    expect(used!.text).toContain(holder);
    expect(used!.text).toContain(EVENT_TITLE);
    expect(used!.at - admitted!.at).toBeGreaterThanOrEqual(3_800);

    const scans = await scansOf(orderId);
    expect(scans.filter((code) => code === 'valid')).toHaveLength(1);
    expect(scans[0]).toBe('valid');
    expect(scans.slice(1).every((code) => code === 'already_used')).toBe(true);

    // Leaving the page lets the camera go.
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Educação Farma/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForFunction(camerasReleased);
  } finally {
    await camera.close();
  }
}, 60_000);

test('a congress of two days: the door set to day 2 lets in a holder who came on day 1, once', async () => {
  const { system } = stack;
  const congress = await congressOfTwoDays(system);
  const { day1, day2 } = congress;
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, congress.eventId);
  // The camera films nothing until the door is set to day 2.
  const film = join(dir, 'congresso.y4m');
  await copyFile(await blankVideo(dir), film);

  const camera = await launchCameraBrowser(stack.system.gatewayUrl, film);
  try {
    const page = await camera.newPage(adminToken);
    await recordVerdicts(page);
    await page.goto('/verificar');
    await page.getByRole('heading', { name: 'Verificar Ingresso' }).waitFor();
    const event = page.getByLabel('Evento desta entrada');
    await event.locator(`option[value="${congress.eventId}"]`).waitFor({ state: 'attached' });
    if (!(await event.isVisible())) await page.getByText('Opções da leitura', { exact: true }).click();
    await event.selectOption(congress.eventId);
    // The day whose door is open first, each day by its name.
    const session = page.getByLabel('Sessão desta entrada');
    expect(await session.inputValue()).toBe(day1.id);
    expect(await session.locator('option').allTextContents()).toEqual([day1.label, day2.label]);
    // Day 1 was the day before, at the door; this door is day 2's.
    await system.call('POST', '/api/verify-ticket', {
      token: adminToken,
      body: { qrCodeData: ticket.qrText, eventId: congress.eventId, sessionId: day1.id },
    });
    await session.selectOption(day2.id);
    const png = Buffer.from(ticket.qrCodeData.replace(/^data:image\/png;base64,/, ''), 'base64');
    await showOnCamera(film, await qrSequenceVideo([png], dir, { secondsEach: 3, name: 'congresso-qr' }));
    // The camera starts again, filming the ticket, with the barcode formats switched on.
    await page.getByLabel(/^Ler também códigos de barras/).check();

    await usedShown(page);
    const [admitted] = await shownVerdicts(page);
    expect(admitted!.headline).toBe(`✓ ${buyer.name}`);
    const readings = await readingsOf(ticket.orderId);
    expect(readings.filter(({ code }) => code === 'valid')).toEqual([
      { code: 'valid', sessionId: day1.id },
      { code: 'valid', sessionId: day2.id },
    ]);
    expect(readings.filter(({ code }) => code !== 'valid').every(({ sessionId }) => sessionId === day2.id)).toBe(true);
  } finally {
    await camera.close();
  }
}, 90_000);

test('a refused camera says so, and offers to try again', async () => {
  const camera = await launchCameraBrowser(stack.system.gatewayUrl, video, { allowCamera: false });
  try {
    const page = await camera.newPage(adminToken);
    await page.goto('/verificar');

    const failure = page.getByRole('alert').filter({ hasText: 'Erro ao acessar câmera' });
    await failure.waitFor({ timeout: 15_000 });
    await failure.getByRole('button', { name: 'Tentar novamente' }).waitFor();
    expect(await page.getByText('Aponte a câmera para o QR Code do ingresso').count()).toBe(0);
  } finally {
    await camera.close();
  }
}, 60_000);
