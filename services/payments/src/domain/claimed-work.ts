const BATCH = 20;

/**
 * Works through what a job claims, a batch at a time, until a batch comes back short: each item is done with no
 * transaction open; one that fails is logged by `failed` and handed back at the end (its claim released), to be tried
 * in the next round. An item whose worker vanished is claimed again once its claim runs out.
 */
export async function workThroughClaims<Item extends { orderId: string }>(
  signal: AbortSignal,
  steps: {
    claim: (batch: number) => Promise<Item[]>;
    work: (item: Item) => Promise<void>;
    failed: (item: Item, error: unknown) => void;
    release: (orderIds: string[]) => Promise<void>;
  },
): Promise<void> {
  const failed: string[] = [];
  try {
    for (;;) {
      const due = await steps.claim(BATCH);
      for (const item of due) {
        if (signal.aborted) return;
        try {
          await steps.work(item);
        } catch (error) {
          steps.failed(item, error);
          failed.push(item.orderId);
        }
      }
      if (due.length < BATCH) return;
    }
  } finally {
    await steps.release(failed);
  }
}
