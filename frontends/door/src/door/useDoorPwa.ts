import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { meQueryKey, preloadToaster } from '@ticketing/shared';
import { doorEventsKey } from './events.ts';

const MANIFEST = '/verificar.webmanifest';
const WORKER = '/door-sw.js';

/** Asks the worker to keep `urls`; resolves to how many it could not. */
function keep(worker: ServiceWorker, urls: string[]): Promise<number> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<{ missing: number }>) => resolve(event.data.missing);
    worker.postMessage({ type: 'keep', urls }, [channel.port2]);
  });
}

/**
 * Installs the door as an app of its own: its manifest while the scanner is shown, and its service worker.
 * Resolves to whether the door's code is kept on the device (true where the browser has no service workers: the
 * door then decides offline as long as the page stays open).
 */
function useInstallable(): boolean {
  const queryClient = useQueryClient();
  const [codeKept, setCodeKept] = useState(!('serviceWorker' in navigator));
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const siteManifest = link?.getAttribute('href');
    link?.setAttribute('href', MANIFEST);
    return () => {
      if (siteManifest) link?.setAttribute('href', siteManifest);
    };
  }, []);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const workers = navigator.serviceWorker;
    // The files this page loaded so far, named to the worker: those loaded before it took control are kept too.
    const keepLoaded = async () => {
      const controller = workers.controller;
      if (!controller) return;
      // The toasts' code otherwise comes with the first toast, which an offline start could not fetch.
      await preloadToaster().catch(() => {});
      const loaded = performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => new URL(url).origin === location.origin && !new URL(url).pathname.startsWith('/api/'));
      if ((await keep(controller, [location.pathname, ...new Set(loaded)])) === 0) setCodeKept(true);
    };
    // Fetched again through the worker once it controls the page, so they are kept for a start without network.
    const keepAnswers = () => {
      void keepLoaded();
      void queryClient.refetchQueries({ queryKey: meQueryKey });
      void queryClient.refetchQueries({ queryKey: doorEventsKey });
    };
    // Files that could not be kept without a network are asked for again once it is back.
    const keepAgain = () => void keepLoaded();
    workers.addEventListener('controllerchange', keepAnswers);
    window.addEventListener('online', keepAgain);
    workers
      .register(WORKER, { scope: '/verificar' })
      .then(() => workers.ready)
      .then(keepLoaded)
      .catch(() => {});
    return () => {
      workers.removeEventListener('controllerchange', keepAnswers);
      window.removeEventListener('online', keepAgain);
    };
  }, [queryClient]);
  return codeKept;
}

/** Keeps the screen on while the scanner is open; the browser lets go when the page is hidden, so it asks again. */
function useWakeLock() {
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | undefined;
    let left = false;
    const acquire = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        lock = await navigator.wakeLock.request('screen');
        if (left) void lock.release();
      } catch {
        // Refused (battery saver, no user gesture yet): the door works, the screen may sleep.
      }
    };
    const onVisibility = () => void acquire();
    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      left = true;
      document.removeEventListener('visibilitychange', onVisibility);
      void lock?.release().catch(() => {});
    };
  }, []);
}

/** The door as an installable app that starts offline and keeps the screen on; true once its code is kept. */
export function useDoorPwa(): boolean {
  useWakeLock();
  return useInstallable();
}
