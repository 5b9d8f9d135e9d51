/**
 * The wait after failure number `attempt` (1, 2, …): base × 2^(attempt−1), capped, with "equal jitter" (a random
 * point in the upper half), so the replicas that failed together in one outage do not all knock again at once.
 */
export function backoffDelayMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
