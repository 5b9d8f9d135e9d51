/** A sleep that ends early when something calls `wake()` (a new e-mail, shutdown). */
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
