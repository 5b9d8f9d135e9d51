/** A sleep that ends early when something calls `wake()` (new rows, shutdown). */
export function createWaker() {
  let pending: (() => void) | undefined;
  let woken = false;
  return {
    wake() {
      woken = true;
      pending?.();
    },
    sleep(ms: number): Promise<void> {
      if (woken) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          pending = undefined;
          woken = false;
          resolve();
        }
        pending = done;
      });
    },
  };
}

/** A background loop that `wake()` hurries and `close()` ends, once its current turn is done. */
export interface WakeableLoop {
  wake(): void;
  close(): Promise<void>;
}

/**
 * Runs `turn` again and again until closed; a turn ends by waiting with `sleep`, which a wake-up (new rows, shutdown)
 * cuts short. The shape of every worker that drains a table.
 */
export function startWakeableLoop(turn: (sleep: (ms: number) => Promise<void>) => Promise<void>): WakeableLoop {
  const waker = createWaker();
  const sleep = (ms: number) => waker.sleep(ms);
  let closed = false;
  const loop = (async () => {
    while (!closed) await turn(sleep);
  })();
  return {
    wake: () => waker.wake(),
    async close() {
      closed = true;
      waker.wake();
      await loop;
    },
  };
}
