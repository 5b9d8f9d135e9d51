import { registerRemotes } from '@module-federation/enhanced/runtime';
import { readPageData } from '../page-data.ts';

/** `/runtime-config.json`: each remote's entry URL, set per deployment (never built into the shell). */
export interface RuntimeConfig {
  remotes: Record<string, string>;
}

let registration: Promise<void> | undefined;

async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/runtime-config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`/runtime-config.json: ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}

/**
 * Reads the remotes' addresses once (a server-rendered page carries them); after a failure the next page load
 * asks again.
 */
export function registerRemotesOnce(): Promise<void> {
  registration ??= (async () => {
    const config = readPageData<RuntimeConfig>('runtimeConfig') ?? (await fetchRuntimeConfig());
    registerRemotes(Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })));
  })();
  registration.catch(() => {
    registration = undefined;
  });
  return registration;
}
