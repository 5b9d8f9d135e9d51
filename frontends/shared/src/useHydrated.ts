import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * Whether the page's code has taken over: false on the server and while a server-rendered page hydrates, true after.
 * A control whose work needs the page's code waits on it, so a click that came too soon is not silently lost.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
