import { access } from 'node:fs/promises';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureFrontendsBuilt } from '../../scripts/lib/frontends.ts';
import { startSystem } from '../api/support.ts';

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

/** The whole product behind its gateway, serving the built frontends, and a headless Chromium to drive it. */
export async function startBrowserStack() {
  await access(CHROMIUM).catch(() => {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  });
  await ensureFrontendsBuilt();
  const system = await startSystem();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }).catch(async (error) => {
    await system.stop();
    throw error;
  });
  const url = system.gatewayUrl;
  const contexts: BrowserContext[] = [];

  return {
    system,
    /** A fresh browser profile (empty storage); with `token`, already logged in. */
    async newContext({ token }: { token?: string } = {}) {
      const context = await browser.newContext({
        baseURL: url,
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
        storageState: {
          cookies: [],
          origins: token ? [{ origin: url, localStorage: [{ name: 'token', value: token }] }] : [],
        },
      });
      // Well inside jest's limit, so a failure names the step that timed out.
      context.setDefaultTimeout(10_000);
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
