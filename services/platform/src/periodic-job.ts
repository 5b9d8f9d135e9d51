import type { Logger } from './logger.ts';
import { createWaker } from './bus/wake.ts';

export interface PeriodicJob {
  /** Runs the work again as soon as the current run ends (new work was just stored). */
  wake(): void;
  close(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs`, or sooner when woken (never two runs at once in this process; replicas coordinate
 * in the database). A failed run is logged and the next one comes as usual. `intervalMs` 0 runs nothing. A long run
 * watches `signal`, aborted when the job closes, and stops between steps.
 */
export function startPeriodicJob(
  name: string,
  intervalMs: number,
  work: (signal: AbortSignal) => Promise<unknown>,
  logger: Logger,
): PeriodicJob {
  if (intervalMs === 0) return { wake: () => {}, close: async () => {} };
  const waker = createWaker();
  const closing = new AbortController();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await waker.sleep(intervalMs);
      if (stopped) break;
      await work(closing.signal).catch((error: unknown) =>
        logger.error({ err: error, job: name }, 'periodic job failed'),
      );
    }
  })();
  return {
    wake: () => waker.wake(),
    async close() {
      stopped = true;
      closing.abort();
      waker.wake();
      await loop;
    },
  };
}
