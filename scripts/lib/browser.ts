import { access } from 'node:fs/promises';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureFrontendsBuilt } from './frontends.ts';
import { startSystem } from './system.ts';

/** Debian's Chromium; a test never downloads a browser of its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** No sandbox (root in a container), no GPU, and nothing that tries to reach the internet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What a page reports when the gateway's Content-Security-Policy blocks something it tried to load or run. */
const CSP_VIOLATION = 'Content Security Policy violation';
const cspViolations: string[] = [];

/** The Content-Security-Policy violations recorded since the last call; a browser test fails on any. */
export const takeCspViolations = () => cspViolations.splice(0);

/**
 * Records every Content-Security-Policy violation of the context's pages (see `takeCspViolations`). The site must
 * work under the gateway's strict policy (no inline scripts or styles, no eval).
 */
export async function failOnCspViolations(context: BrowserContext): Promise<void> {
  context.on('console', (message) => {
    if (message.text().includes(CSP_VIOLATION)) cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
  await context.addInitScript((label) => {
    type Violation = { effectiveDirective: string; blockedURI: string; sourceFile: string; lineNumber: number };
    type Window = { addEventListener(type: string, listener: (event: Violation) => void): void };
    // The event bubbles from the element or document that broke the policy up to the window.
    (globalThis as unknown as Window).addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : '';
      console.error(`${label}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'}${where}`);
    });
  }, CSP_VIOLATION);
}

/**
 * The whole product behind its gateway, serving the built frontends, and a headless Chromium to drive it; `options`
 * go to `startSystem`.
 */
export async function startBrowserStack(options: Parameters<typeof startSystem>[0] = {}) {
  await access(CHROMIUM).catch(() => {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  });
  await ensureFrontendsBuilt();
  const system = await startSystem(options);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }).catch(async (error) => {
    await system.stop();
    throw error;
  });
  const url = system.gatewayUrl;
  const contexts: BrowserContext[] = [];

  return {
    system,
    /** A fresh browser profile (empty storage); with `token`, already logged in; optionally without JavaScript. */
    async newContext({ token, javaScriptEnabled = true }: { token?: string; javaScriptEnabled?: boolean } = {}) {
      const context = await browser.newContext({
        baseURL: url,
        javaScriptEnabled,
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
        storageState: {
          cookies: [],
          origins: token ? [{ origin: url, localStorage: [{ name: 'token', value: token }] }] : [],
        },
      });
      // Well inside jest's limit, so a failure names the step that timed out.
      context.setDefaultTimeout(10_000);
      // A first load of the shell and its remotes on a machine busy with other browsers can take longer.
      context.setDefaultNavigationTimeout(30_000);
      await failOnCspViolations(context);
      contexts.push(context);
      return context;
    },
    async stop() {
      await Promise.all(contexts.map((context) => context.close()));
      await browser.close();
      await system.stop();
    },
  };
}

export type BrowserStack = Awaited<ReturnType<typeof startBrowserStack>>;
