import type { Logger } from '@ticketing/platform';

export interface PeriodicJob {
  close(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (never two runs at once in this process; replicas coordinate in the database).
 * A failed run is logged and the next one comes as usual. `intervalMs` 0 runs nothing.
 */
export function startPeriodicJob(
  name: string,
  intervalMs: number,
  work: () => Promise<unknown>,
  logger: Logger,
): PeriodicJob {
  if (intervalMs === 0) return { close: async () => {} };
  let running: Promise<void> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(() => {
      running = work()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, job: name }, 'periodic job failed'),
        )
        .finally(() => {
          running = undefined;
          if (!stopped) schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
