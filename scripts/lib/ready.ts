/** Polls `url` until it answers 2xx; gives up after `timeoutMs` or once `stop()` says so. */
export async function waitForHttp(url: string, timeoutMs = 60_000, stop: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stop()) {
    const ok = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
}
