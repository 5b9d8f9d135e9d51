/**
 * The frontends' server-rendering module (built into `frontends/dist-server/render.js`, loaded by the gateway):
 * the shell's layout around a remote's server page, with the data the page read, inside the shell's `index.html`.
 * Pages no remote renders on the server (anything behind a login) answer `null` and render in the browser.
 */
import { createHash } from 'node:crypto';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { dehydrate, QueryClientProvider } from '@tanstack/react-query';
// The same module the apps' router (`@ticketing/shared/router`) re-exports: one router context in the bundle.
import { matchRoutes, StaticRouter } from 'react-router';
import type { PageRenderer, PageRequest, RenderedPage } from '@ticketing/proto/page-render';
import { createQueryClient, queryPath, type PageAddress, type ServerPage } from '@ticketing/shared';
import { serverPages } from '@ticketing/storefront/server';
import { provideServerPages } from '../remote/RemotePage.tsx';
import { SiteRoutes } from '../route-tree.tsx';
import { PAGE_ROUTES, type RemotePageId } from '../routes.ts';
import { pageAssets } from './assets.ts';
import { composeDocument } from './document.ts';

const SERVER_PAGES: Partial<Record<RemotePageId, ServerPage>> = serverPages;

provideServerPages(Object.fromEntries(Object.entries(serverPages).map(([id, page]) => [id, page.Page])));

/** React writes attribute values with these five escaped; CSP hashes the value the browser reads. */
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
};

function styleHashes(html: string): string[] {
  const values = new Set([...html.matchAll(/ style="([^"]*)"/g)].map((match) => match[1]!));
  return [...values].map((value) => {
    const decoded = value.replace(/&(amp|lt|gt|quot|#x27);/g, (entity) => ATTRIBUTE_ENTITIES[entity]!);
    return `sha256-${createHash('sha256').update(decoded).digest('base64')}`;
  });
}

/** An API read that is not a 200 or a 404 (a service down, a timeout) leaves the page to the browser. */
class UnreadableData extends Error {}

async function renderPage(request: PageRequest): Promise<RenderedPage | null> {
  const url = new URL(request.url, request.origin);
  const match = matchRoutes([...PAGE_ROUTES], url.pathname)?.[0];
  const serverPage = match && SERVER_PAGES[match.route.page];
  if (!match || !serverPage) return null;

  const address: PageAddress = { params: match.params, search: url.searchParams, origin: request.origin };
  const data = createQueryClient();
  let status = 200;
  await Promise.all(
    serverPage.queries(address).map(async (key) => {
      const answer = await request.readApi(`/api${queryPath(key)}`);
      if (answer.status === 200) data.setQueryData(key, answer.body);
      else if (answer.status === 404) status = 404;
      else throw new UnreadableData(`${queryPath(key)} answered ${answer.status}`);
    }),
  );

  const html = renderToString(
    <StrictMode>
      <QueryClientProvider client={data}>
        <StaticRouter location={url.pathname + url.search}>
          <SiteRoutes />
        </StaticRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  const [template, assets] = await Promise.all([
    request.readBuildFile('index.html'),
    pageAssets(match.route.page, request.readBuildFile),
  ]);
  return {
    status,
    styleHashes: styleHashes(html),
    html: composeDocument({
      template,
      html,
      head: serverPage.head(address, data),
      origin: request.origin,
      page: match.route.page,
      // A page whose data is missing shows its skeleton until the browser says what is wrong.
      finished: status === 200 && !serverPage.unfinished?.(address),
      assets,
      state: dehydrate(data),
    }),
  };
}

export const renderer: PageRenderer = { renderPage };
