import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import type { RemotePageId } from '../routes.ts';
import { PageLoading } from '../pages/PageLoading.tsx';
import { loadPage, type PageModule } from './load-page.ts';
import { RemoteErrorBoundary } from './RemoteErrorBoundary.tsx';

/** Pages already downloaded render at once when visited again, without suspending. */
const loaded = new Map<RemotePageId, ComponentType>();

/**
 * On the server the remotes' pages are part of the bundle: they render at once, inside the same error boundary and
 * Suspense boundary as in the browser, where the page's code then arrives while its server HTML stays on screen.
 */
export function provideServerPages(pages: Partial<Record<RemotePageId, ComponentType>>) {
  for (const [page, component] of Object.entries(pages)) loaded.set(page as RemotePageId, component);
}

async function loadAndKeep(page: RemotePageId): Promise<PageModule> {
  const module = await loadPage(page);
  loaded.set(page, module.default);
  return module;
}

/** A remote's page, loaded on first visit; if its code cannot be fetched the rest of the site keeps working. */
export function RemotePage({ page }: { page: RemotePageId }) {
  const [attempt, setAttempt] = useState(0);
  // React.lazy keeps a failed import for good: each visit and each retry gets a lazy component of its own.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is what asks for a new one
  const Page = useMemo(() => loaded.get(page) ?? lazy(() => loadAndKeep(page)), [page, attempt]);
  return (
    <RemoteErrorBoundary key={attempt} onRetry={() => setAttempt(attempt + 1)}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
