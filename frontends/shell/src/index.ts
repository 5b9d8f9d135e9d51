import { config } from 'zod';
import { hasSession } from '@ticketing/shared/token';
import { readPageData } from './page-data.ts';
import { loadPage } from './remote/load-page.ts';
import type { RemotePageId } from './routes.ts';
// The site's styles belong to the entry, so the page links them in its <head>: a page rendered on the server is
// styled before any script runs.
import '@ticketing/shared/styles.css';
import './layout/layout.css';

// The site's CSP forbids eval, and zod's test for it (compiling a function once) is reported as a violation.
// Its configuration lives on `globalThis`, so this covers the remotes' copies of zod too.
config({ jitless: true });

let started = false;

/** Downloads and runs the site's code: React, the layout, and the page's own module alongside. */
function start() {
  if (started) return;
  started = true;
  // An async boundary: the shared modules (React, the router…) are negotiated with the remotes before any runs.
  // Named, so the build lists its scripts for a server-rendered page to fetch ahead (`boot-scripts.json`).
  void import(/* webpackChunkName: "bootstrap" */ './bootstrap.tsx');
  const page = readPageData<RemotePageId>('page');
  if (!page) return;
  const loadOwnPage = () => void loadPage(page).catch(() => {});
  // Before `load` it starts at once, so the page is ready when it has loaded. After, in a task of its own: on a slow
  // phone, one task doing both would hold up a tap for too long.
  if (document.readyState === 'complete') setTimeout(loadOwnPage);
  else loadOwnPage();
}

/** Runs `callback` once the browser is idle: after the frame it was drawing, with nothing else waiting. */
const whenIdle = (callback: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(callback, { timeout: 2_000 }) : setTimeout(callback, 200);

/** Runs `callback` once the browser has drawn what an event changed (in the frame after the next) and is idle. */
const afterItsFrame = (callback: () => void) =>
  requestAnimationFrame(() => requestAnimationFrame(() => whenIdle(callback)));

/**
 * Fetches scripts into the browser's cache at its lowest priority, without running them: one per idle moment, as
 * asking for each costs a phone a few milliseconds.
 */
function prefetch([script, ...others]: readonly string[]) {
  // Once the code runs, it asks for what it needs itself.
  if (!script || started) return;
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.as = 'script';
  link.href = script;
  document.head.append(link);
  whenIdle(() => prefetch(others));
}

/**
 * A visitor's server-rendered page works before its code runs: links, the menu, the search, the FAQ and
 * 'Comprar ingresso' are plain HTML. So once the page has loaded and the phone is idle, its code is only fetched;
 * it runs after the visitor's first click, key or typing, once the browser has shown its own answer and is idle
 * again, so that answer never waits for it, and someone who only reads never pays for it. A page rendered in the
 * browser needs its code at once; so do a page the server could not finish (an unknown event, a promotional code to
 * check) and someone signed in, whose page differs from the server's (and whose browser usually has the code).
 */
function startOnFirstUse() {
  const fetchAhead = () => whenIdle(() => prefetch(readPageData<string[]>('scripts') ?? []));
  if (document.readyState === 'complete') fetchAhead();
  else addEventListener('load', fetchAhead, { once: true });
  for (const type of ['click', 'keydown', 'input']) {
    addEventListener(type, () => afterItsFrame(start), { once: true, capture: true, passive: true });
  }
}

if (readPageData<boolean>('finished') && !hasSession()) startOnFirstUse();
else start();
