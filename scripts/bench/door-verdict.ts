/**
 * Part of `npm run bench` (or `node scripts/bench/door-verdict.ts`): how long the door takes from the camera's
 * decoded frame to the verdict on screen, online (the server's verdict) and offline (the phone's own), on a
 * phone-sized Chromium filming a queue of real tickets with its fake camera. The page measures each verdict
 * itself (`door:verdict`, from the decoded frame to the first paint of the overlay); this prints the median and
 * p95 of each, and offline ÷ online. Aims on this machine: ≤ 400 ms online, ≤ 100 ms offline.
 *
 * BENCH_DOOR_READINGS sets the readings per measurement (default 12).
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, startSystem, verifiedBuyer } from '../lib/system.ts';
import { blankVideo, launchCameraBrowser, qrSequenceVideo, showOnCamera } from '../lib/fake-camera.ts';
import { ensureFrontendsBuilt } from '../lib/frontends.ts';
import { percentile } from './fixed-rate.ts';

const READINGS = Number(process.env.BENCH_DOOR_READINGS ?? 12);
const BUYERS = 4;

type System = Awaited<ReturnType<typeof startSystem>>;

/** `count` paid tickets for the event, bought through the API as buyers do; their QR images. */
async function buyTickets(system: System, eventId: string, count: number): Promise<Buffer[]> {
  const perBuyer = await Promise.all(
    Array.from({ length: BUYERS }, async (_, b) => {
      const buyer = await verifiedBuyer(system);
      const images: Buffer[] = [];
      for (let i = b; i < count; i += BUYERS) {
        const { status, body } = await system.call('POST', '/api/orders', {
          token: buyer.token,
          body: { eventId, paymentMethod: 'pix' },
        });
        if (status !== 201) throw new Error(`purchase refused (${status}): ${JSON.stringify(body)}`);
        system.sandbox.confirm(body.order.asaasPaymentId);
        const qr: string = await waitFor(async () => {
          const orders = await system.call('GET', '/api/orders?page=1', { token: buyer.token });
          return orders.body.orders.find((order: { id: string }) => order.id === body.order.id)?.qrCodeData;
        });
        images.push(Buffer.from(qr.replace(/^data:image\/png;base64,/, ''), 'base64'));
      }
      return images;
    }),
  );
  return perBuyer.flat();
}

interface Measured {
  durations: number[];
}

/** The verdict times the page measured so far, by who decided. */
const measuredOn = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByName('door:verdict', 'measure')
      .map((entry) => ({ by: (entry as unknown as { detail?: { by?: string } }).detail?.by, ms: entry.duration })),
  );

function summary({ durations }: Measured) {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    readings: sorted.length,
    'median ms': Math.round(percentile(sorted, 50)),
    'p95 ms': Math.round(percentile(sorted, 95)),
  };
}

/**
 * Each buyer pays an order before making the next, so none ever has more than one waiting (under the cap of pending
 * orders); the per-account purchase limit, sized for people, is raised to the purchases each buyer makes here.
 */
const system = await startSystem({
  ordersEnv: { ORDER_RATE_LIMIT_POINTS: String(Math.ceil((2 * READINGS) / BUYERS) + 1) },
});
const dir = await mkdtemp(join(tmpdir(), 'porta-bench-'));
try {
  await ensureFrontendsBuilt();
  const { eventId, adminToken } = await adminEvent(system, {
    title: 'Congresso de Benchmark',
    maxAttendees: 2 * READINGS + 5,
  });
  const images = await buyTickets(system, eventId, 2 * READINGS);
  const cameraFile = join(dir, 'camera.y4m');
  await copyFile(await blankVideo(dir), cameraFile);
  const camera = await launchCameraBrowser(system.gatewayUrl, cameraFile);
  try {
    const page = await camera.newPage(adminToken);
    await page.goto('/verificar');
    await page.getByText('Pronto para ler sem internet').waitFor({ timeout: 30_000 });

    /** Films `queue` from a fresh camera start and waits for every one of its holders to be let in. */
    const measure = async (queue: Buffer[], by: 'server' | 'device'): Promise<Measured> => {
      await showOnCamera(cameraFile, await qrSequenceVideo(queue, dir, { name: `fila-${by}` }));
      const formats = page.getByLabel(/^Ler também códigos de barras/);
      if ((await page.locator('details.scanner__options').getAttribute('open')) === null)
        await page.getByText('Opções da leitura').click();
      // Toggling the formats restarts the camera on the new queue. The previous queue's video loops, so a verdict on
      // a ticket read again may cover the page: the click goes to the box itself.
      await formats.dispatchEvent('click');
      const done = async () => (await measuredOn(page)).filter((entry) => entry.by === by).length >= queue.length;
      await waitFor(done, { timeoutMs: queue.length * 5_000, intervalMs: 200 });
      return { durations: (await measuredOn(page)).filter((entry) => entry.by === by).map((entry) => entry.ms) };
    };

    /** The event's admissions as the server counts them: a verdict that refused entry measures nothing. */
    const admitted = async () => {
      const { status, body } = await system.call('GET', `/api/door/events/${eventId}/counts`, { token: adminToken });
      if (status !== 200) throw new Error(`door counts refused (${status}): ${JSON.stringify(body)}`);
      return body.admitted as number;
    };
    /** Stops the run unless `expected` holders in all were let in (a queue's video loops: a reading may come twice). */
    const expectAdmitted = (expected: number, what: string) =>
      waitFor(async () => (await admitted()) >= expected, { timeoutMs: 30_000, intervalMs: 250 }).catch(async () => {
        throw new Error(`${what}: ${await admitted()} of ${expected} holders admitted`);
      });
    const online = await measure(images.slice(0, READINGS), 'server');
    await expectAdmitted(READINGS, 'online readings');
    await page.context().setOffline(true);
    const offline = await measure(images.slice(READINGS), 'device');
    // Back online, the phone sends its readings: each must have let a holder in.
    await page.context().setOffline(false);
    await expectAdmitted(2 * READINGS, 'online and offline readings, once synced');

    console.log(`\nDoor verdict: decoded frame → overlay painted, ${READINGS} readings each (390 × 844 Chromium)`);
    const rows = { online: summary(online), offline: summary(offline) };
    console.table(rows);
    console.log(
      `offline ÷ online (median): ${(rows.offline['median ms'] / Math.max(1, rows.online['median ms'])).toFixed(2)}` +
        ' — aims: ≤ 400 ms online, ≤ 100 ms offline',
    );
  } finally {
    await camera.close();
  }
} finally {
  await system.stop();
  await rm(dir, { recursive: true, force: true });
}
