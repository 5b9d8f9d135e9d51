/**
 * An open-loop load: `rate` calls a second for `seconds`, each started on its schedule whether or not the ones
 * before it have answered, and each timed from when it was due (a late start counts as waiting, so a stall cannot
 * hide behind the requests it held back).
 */
export interface FixedRateResult {
  calls: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `call(i)` for i = 0 … rate × seconds − 1 on schedule; a call that returns false or throws is a failure. */
export async function fixedRate(
  rate: number,
  seconds: number,
  call: (i: number) => Promise<boolean>,
): Promise<FixedRateResult> {
  const calls = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const durations: number[] = [];
  let failures = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < calls; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      call(i)
        .catch(() => false)
        .then((ok) => {
          if (!ok) failures++;
          durations.push(performance.now() - due);
        }),
    );
  }
  await Promise.all(pending);
  const sorted = durations.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    calls,
    failures,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1)!),
  };
}
