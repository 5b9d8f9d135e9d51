import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { adminEvent, verifiedBuyer } from '../../scripts/lib/system.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

/**
 * The first tap on a phone, right after the page has loaded: a mid-range phone's CPU (Chromium's 4× slowdown) on a
 * 390×844 screen. Each answer must be on screen within 200 ms of the tap, with code the page already had.
 */
let stack: BrowserStack;
let eventId: string;
/** Chromium's slowdown that makes this host's CPU that phone's. */
let slowdown: number;
beforeAll(async () => {
  stack = await startBrowserStack();
  ({ eventId } = await adminEvent(stack.system, { title: 'Workshop de Boas Práticas de Distribuição' }));
  slowdown = await phoneSlowdown(await stack.newContext());
}, 180_000);
afterAll(() => stack?.stop());

/** The phones a test opened, closed after it: a page left open keeps drawing frames and slows the next test's. */
const opened: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

async function phoneContext(options: { token?: string } = {}): Promise<BrowserContext> {
  const context = await stack.newContext(options);
  opened.push(context);
  return context;
}

const ANSWER_MS = 200;
/**
 * The phone is 4× slower than the machine the budget was set on, whose CPU benchmark index (Lighthouse's) is 3,600.
 * A host slowed by other work (a shared CI machine reads 1,100–1,500) is slowed less, as Lighthouse's own guidance
 * scales its multiplier, so the test times the same phone whatever the host.
 */
const PHONE_SLOWDOWN = 4;
const REFERENCE_BENCHMARK_INDEX = 3600;

async function phoneSlowdown(context: BrowserContext): Promise<number> {
  const page = await context.newPage();
  const index = await page.evaluate(pageFunctions.computeBenchmarkIndex);
  await context.close();
  return Math.max(1, (PHONE_SLOWDOWN * index) / REFERENCE_BENCHMARK_INDEX);
}
/** A page loaded with the CPU slowed 4× on a machine busy with other suites takes a while before the tap. */
const SLOWED_TEST_MS = 180_000;

interface Recorded {
  /** When the pointer went down, and when each answer was first on screen (the frame after it), in page time. */
  down?: number;
  answers: Record<string, number>;
}

/** What the recorder uses of the page's window. */
interface RecorderWindow {
  taps: Recorded;
  document: {
    querySelector(selector: string): unknown;
    querySelectorAll(selector: string): Iterable<{ id: string }>;
    activeElement: { name?: string } | null;
  };
  addEventListener(type: string, listener: (event: { timeStamp: number }) => void, capture: boolean): void;
  requestAnimationFrame(callback: () => void): void;
}

/** What the page's resource timing holds of one request. */
interface ResourceEntry {
  name: string;
  initiatorType: string;
  startTime: number;
  responseEnd: number;
  transferSize: number;
  encodedBodySize: number;
}

/**
 * Installed before the page's own scripts: notes the tap, then looks at every frame from it on for what it shows (a
 * popover the browser opened, a field that took the focus, a dialog the page's code rendered) and notes each answer
 * at the frame after the first that drew it, when it is on screen.
 */
function recordTaps() {
  const page = globalThis as unknown as RecorderWindow;
  page.taps = { answers: {} };
  const drawn = new Set<string>();
  const watch = () => {
    const { answers } = page.taps;
    for (const answer of drawn) answers[answer] ??= performance.now();
    for (const open of page.document.querySelectorAll('[popover]:popover-open')) drawn.add(`#${open.id}`);
    const focused = page.document.activeElement?.name;
    if (focused) drawn.add(`focus:${focused}`);
    if (page.document.querySelector('[role="dialog"].dialog__content')) drawn.add('dialog');
    page.requestAnimationFrame(watch);
  };
  page.addEventListener(
    'pointerdown',
    (event) => {
      if (page.taps.down !== undefined) return;
      page.taps.down = event.timeStamp;
      page.requestAnimationFrame(watch);
    },
    true,
  );
}

interface Answer {
  /** From the tap to the frame that showed the answer, in ms. */
  took: number;
  /** Scripts the page asked for to run between the tap and the answer. */
  fetched: string[];
}

interface Phone {
  page: Page;
  /** Taps `target` and waits for its `answer` to show. */
  tap(target: ReturnType<Page['getByRole']>, answer: string): Promise<Answer>;
}

/**
 * A slowed phone at `path`, loaded. With `refuseLateScripts`, every script asked for after the tap is refused, so an
 * answer that needed one never shows.
 */
async function phoneAt(context: BrowserContext, path: string, { refuseLateScripts = false } = {}): Promise<Phone> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  await page.addInitScript(recordTaps);
  let tapped = false;
  if (refuseLateScripts) await page.route('**/*.js', (route) => (tapped ? route.abort() : route.continue()));
  await page.goto(path, { waitUntil: 'load' });
  return {
    page,
    async tap(target, answer) {
      tapped = true;
      await target.click();
      const answered = await page.waitForFunction((key) => {
        const { down, answers } = (globalThis as unknown as RecorderWindow).taps;
        const shown = answers[key];
        if (down === undefined || shown === undefined) return false;
        // Scripts asked for to run: one the page was fetching ahead of its use (`link`) is not the tap's code.
        const fetched = (performance.getEntriesByType('resource') as unknown as ResourceEntry[])
          .filter(
            (entry) =>
              entry.name.endsWith('.js') &&
              entry.initiatorType !== 'link' &&
              entry.startTime > down &&
              entry.startTime < shown,
          )
          .map((entry) => new URL(entry.name).pathname);
        return { took: shown - down, fetched };
      }, answer);
      return (await answered.jsonValue()) as Answer;
    },
  };
}

/**
 * A tap on a fresh phone at `path`, tried again (up to three phones) while the answer is over budget, as a host busy
 * with other work can stall one run. Each try must have asked for no script between the tap and its answer. A
 * visitor's phone (no `token`) also refuses every script asked for after the tap: an answer that needed code would
 * never show.
 */
async function quickestTap(path: string, target: (page: Page) => Locator, answer: string, token?: string) {
  let quickest: { phone: Phone; answer: Answer } | undefined;
  for (let tries = 0; tries < 3 && !(quickest && quickest.answer.took <= ANSWER_MS); tries++) {
    const phone = await phoneAt(await phoneContext({ token }), path, { refuseLateScripts: token === undefined });
    const answered = await phone.tap(target(phone.page), answer);
    expect(answered).toEqual({ took: expect.any(Number), fetched: [] });
    if (!quickest || answered.took < quickest.answer.took) quickest = { phone, answer: answered };
  }
  return quickest!;
}

test(
  "a visitor's 'Comprar ingresso' asks to log in at once, with no code fetched for it",
  async () => {
    const { phone, answer } = await quickestTap(
      `/event/${eventId}`,
      (page) => page.getByRole('main').getByRole('button', { name: 'Comprar ingresso' }),
      '#entrar-para-comprar',
    );

    const prompt = phone.page.getByRole('dialog', { name: 'Login necessário' });
    await prompt.getByText('Faça login ou cadastre-se para comprar ingressos').waitFor();
    expect(await prompt.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toBe('/login');
    expect(answer.took).toBeLessThanOrEqual(ANSWER_MS);
  },
  SLOWED_TEST_MS,
);

test(
  "a visitor's search opens a field ready for typing at once and takes the words to the events list",
  async () => {
    const { phone, answer } = await quickestTap(
      '/',
      (page) => page.getByRole('banner').getByRole('button', { name: 'Buscar eventos' }),
      'focus:q',
    );

    const field = phone.page.getByRole('banner').getByRole('searchbox', { name: 'Buscar eventos' });
    expect(await field.evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    expect(answer.took).toBeLessThanOrEqual(ANSWER_MS);
    // The page's code was refused: the browser sends the search itself, and the list comes rendered.
    await field.fill('distribuição');
    await field.press('Enter');
    await phone.page.waitForURL('**/eventos?q=distribui%C3%A7%C3%A3o');
    await phone.page.getByRole('main').getByText('Workshop de Boas Práticas de Distribuição').waitFor();
  },
  SLOWED_TEST_MS,
);

test(
  "a visitor's menu opens at once with its links",
  async () => {
    const { phone, answer } = await quickestTap(
      '/',
      (page) => page.getByRole('banner').getByRole('button', { name: 'Abrir menu' }),
      '#menu-movel',
    );

    const sheet = phone.page.getByRole('navigation', { name: 'Menu' });
    expect(await sheet.getByRole('link').allInnerTexts()).toEqual(['Eventos', 'Resgate de cortesia', 'Área de acesso']);
    expect(answer.took).toBeLessThanOrEqual(ANSWER_MS);
  },
  SLOWED_TEST_MS,
);

test(
  "a buyer's 'Comprar ingresso' opens the checkout at once, with the code the page already fetched",
  async () => {
    const buyer = await verifiedBuyer(stack.system);
    const { phone, answer } = await quickestTap(
      `/event/${eventId}`,
      (page) => page.getByRole('main').getByRole('button', { name: 'Comprar ingresso' }),
      'dialog',
      buyer.token,
    );

    await phone.page.getByRole('dialog', { name: 'Comprar ingresso' }).waitFor();
    expect(await phone.page.getByRole('dialog', { name: 'Login necessário' }).isVisible()).toBe(false);
    expect(answer.took).toBeLessThanOrEqual(ANSWER_MS);
  },
  SLOWED_TEST_MS,
);

/** A script the page asked for: by whom (`link` fetched ahead, `script` to run), when, and whether its body came. */
interface ScriptRequest {
  path: string;
  initiator: string;
  startTime: number;
  fetched: boolean;
}

const scriptRequests = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType('resource') as unknown as ResourceEntry[])
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({
        path: new URL(entry.name).pathname,
        initiator: entry.initiatorType,
        startTime: entry.startTime,
        // A copy from the cache transfers nothing; a revalidated one (304) only its headers.
        fetched: entry.transferSize > 0 && entry.transferSize >= entry.encodedBodySize,
      })),
  ) as Promise<ScriptRequest[]>;

/** Whether React has taken the server's page over (run in the page). */
function hydrated() {
  const heading = (globalThis as unknown as RecorderWindow).document.querySelector('#root h1');
  return heading !== null && Object.keys(heading as object).some((key) => key.startsWith('__reactFiber'));
}

test("a visitor's page fetches its code once loaded, runs none of it until the first tap, then runs it from what it fetched", async () => {
  const page = await (await phoneContext()).newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/event/${eventId}`, { waitUntil: 'load' });
  const named = JSON.parse((await page.locator('#page-scripts').textContent())!) as string[];
  expect(named).toEqual(expect.arrayContaining(['/storefront/remoteEntry.js']));
  await page.waitForFunction(
    (paths) =>
      paths.every((path) =>
        (performance.getEntriesByType('resource') as unknown as ResourceEntry[]).some(
          (entry) => new URL(entry.name).pathname === path && entry.initiatorType === 'link' && entry.responseEnd > 0,
        ),
      ),
    named,
  );
  // Fetched ahead, not run: only the shell's first script ran, and React has not taken the page over.
  expect((await scriptRequests(page)).filter((script) => script.initiator === 'script')).toEqual([
    expect.objectContaining({ path: expect.stringMatching(/^\/assets\/main\.\w+\.js$/) }),
  ]);
  expect(await page.evaluate(hydrated)).toBe(false);

  const tappedAt = await page.evaluate(() => performance.now());
  await page.getByRole('banner').getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).waitFor();
  await page.waitForFunction(hydrated);

  const ran = (await scriptRequests(page)).filter((script) => script.startTime > tappedAt);
  expect(ran.length).toBeGreaterThan(0);
  expect(ran.filter((script) => !named.includes(script.path) || script.fetched)).toEqual([]);
});
