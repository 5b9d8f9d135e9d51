import type { ChildProcess } from 'node:child_process';

/** How long a process waits before it is started again: doubling from `firstMs` up to `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  /** A process that stayed up this long is healthy again: its next restart waits `firstMs` once more. */
  resetAfterMs: number;
}

/** As Kubernetes would: 1 s, 2 s, 4 s… up to 30 s, back to 1 s after a minute up. */
export const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };
const FORCE_AFTER_MS = 10_000;

interface Supervised {
  spawn: () => ChildProcess;
  child?: ChildProcess;
  startedAt: number;
  restarts: number;
  delayMs: number;
  timer?: NodeJS.Timeout;
}

/**
 * Keeps processes running: one that exits while the supervisor is not stopping is logged and started again after a
 * backoff, by the same `spawn` (so with the same environment and secrets), while the others keep running.
 */
export function createSupervisor({ backoff = DEFAULT_BACKOFF, log = (line: string) => console.error(line) } = {}) {
  const processes = new Map<string, Supervised>();
  let stopping = false;

  function run(name: string, entry: Supervised): void {
    entry.timer = undefined;
    entry.startedAt = Date.now();
    const child = entry.spawn();
    entry.child = child;
    child.once('exit', (code, signal) => {
      entry.child = undefined;
      if (stopping) return;
      const upMs = Date.now() - entry.startedAt;
      entry.delayMs =
        entry.delayMs === 0 || upMs >= backoff.resetAfterMs
          ? backoff.firstMs
          : Math.min(entry.delayMs * 2, backoff.maxMs);
      entry.restarts += 1;
      const ended = signal ? `signal ${signal}` : `exit code ${code}`;
      log(`[${name}] stopped unexpectedly (${ended}); restart #${entry.restarts} in ${entry.delayMs / 1000} s`);
      entry.timer = setTimeout(() => run(name, entry), entry.delayMs);
    });
  }

  return {
    /** Starts `name` with `spawn`, and again with it whenever it exits (nothing once stopping: it would outlive us). */
    start(name: string, spawn: () => ChildProcess): void {
      if (stopping) return;
      const entry: Supervised = { spawn, startedAt: 0, restarts: 0, delayMs: 0 };
      processes.set(name, entry);
      run(name, entry);
    },

    /** How many times `name` was started again. */
    restarts: (name: string) => processes.get(name)?.restarts ?? 0,

    /** The process running as `name` now, if any (none while it waits for its restart). */
    child: (name: string) => processes.get(name)?.child,

    get stopping() {
      return stopping;
    },

    /** Cancels pending restarts and stops every process (SIGTERM, SIGKILL after 10 s); resolves once all exited. */
    async stop(): Promise<void> {
      stopping = true;
      const running = [...processes.values()].flatMap((entry) => {
        clearTimeout(entry.timer);
        return entry.child && entry.child.exitCode === null && entry.child.signalCode === null ? [entry.child] : [];
      });
      const exits = running.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM')));
      const forced = setTimeout(() => running.forEach((child) => child.kill('SIGKILL')), FORCE_AFTER_MS);
      await Promise.all(exits);
      clearTimeout(forced);
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;
