import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { createQueryClient, forgetIfSignedOut, hasSession, meQueryKey } from '@ticketing/shared';
import { App } from './App.tsx';
import { readPageData } from './page-data.ts';
import { registerRemotesOnce } from './remote/runtime-config.ts';

// The remotes' addresses load while the layout renders; pages wait for them.
void registerRemotesOnce().catch(() => {});
// Nobody signed in: what a previous session kept on this device (a door phone's data) goes.
void forgetIfSignedOut(hasSession()).catch(() => {});

const root = document.getElementById('root')!;
const queryClient = createQueryClient();
// Asked even when the browser says it is offline: the door's service worker answers from its copy, so the scanner
// starts without a network instead of waiting on its role check.
queryClient.setQueryDefaults(meQueryKey, { networkMode: 'offlineFirst' });
const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);
// A page the server rendered is taken over as it is, with the data it was rendered with; the page's own code
// arrives meanwhile and its HTML stays on screen until it has. As a transition, hydrating yields to the browser
// every few milliseconds instead of holding the main thread while a phone works through it.
const state = readPageData<DehydratedState>('state');
if (state) {
  hydrate(queryClient, state);
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}
