import { config } from 'zod';
import { hasSession } from '@ticketing/shared/token';
import { PAGE_DATA, readPageData } from './page-data.ts';
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
  void import('./bootstrap.tsx');
  const page = readPageData<RemotePageId>('page');
  if (!page) return;
  const loadOwnPage = () => void loadPage(page).catch(() => {});
  // Before `load` it starts at once, so the page is ready when it has loaded. After, in a task of its own: on a slow
  // phone, one task doing both would hold up a tap for too long.
  if (document.readyState === 'complete') setTimeout(loadOwnPage);
  else loadOwnPage();
}

/**
 * A visitor's server-rendered page works before its code arrives: links, the menu, the search, the FAQ and
 * 'Comprar ingresso' are plain HTML. So its code waits until the page has loaded and the phone is idle, or until
 * the first touch or key, whichever comes first. A page rendered in the browser needs its code at once; so does
 * someone signed in, whose page differs from the server's (and whose browser usually has the code already).
 */
function startWhenIdle() {
  const idle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(start, { timeout: 2_000 }) : setTimeout(start, 200);
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
  for (const type of ['pointerdown', 'keydown', 'focusin']) {
    addEventListener(type, start, { once: true, capture: true, passive: true });
  }
}

if (document.getElementById(PAGE_DATA.state) && !hasSession()) startWhenIdle();
else start();
