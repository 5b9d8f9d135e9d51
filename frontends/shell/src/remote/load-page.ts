import type { ComponentType } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import type { RemotePageId } from '../routes.ts';
import { registerRemotesOnce } from './runtime-config.ts';

export interface PageModule {
  default: ComponentType;
}

const downloads = new Map<RemotePageId, Promise<PageModule>>();

/**
 * A remote's page module, downloaded once. No React here: the shell's first script starts the page's download
 * alongside React's. A failed download is forgotten, so the next attempt asks again.
 */
export function loadPage(page: RemotePageId): Promise<PageModule> {
  let download = downloads.get(page);
  if (!download) {
    download = registerRemotesOnce()
      .then(() => loadRemote<PageModule>(page))
      .then((module) => {
        if (!module) throw new Error(`${page} did not load`);
        return module;
      });
    downloads.set(page, download);
    download.catch(() => downloads.delete(page));
  }
  return download;
}
