import { registerRemotes } from '@module-federation/enhanced/runtime';

/** `/runtime-config.json`: each remote's manifest URL, set per deployment (never built into the shell). */
interface RuntimeConfig {
  remotes: Record<string, string>;
}

let registration: Promise<void> | undefined;

/** Reads the remotes' addresses once; after a failure the next page load asks again. */
export function registerRemotesOnce(): Promise<void> {
  registration ??= (async () => {
    const response = await fetch('/runtime-config.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(`/runtime-config.json: ${response.status}`);
    const config = (await response.json()) as RuntimeConfig;
    registerRemotes(Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })));
  })();
  registration.catch(() => {
    registration = undefined;
  });
  return registration;
}
