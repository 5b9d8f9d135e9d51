import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('../src/heap-release.ts', import.meta.url));

/**
 * Runs a process that grows its heap by ~100 MB of garbage, then either idles or keeps its event loop busy, with the
 * release looking every 100 ms; it prints each release and stops after `seconds`.
 */
function runProcess(afterBurst: 'idle' | 'busy', seconds: number, nodeArgs = ['--expose-gc']) {
  const script = `
    import { getHeapStatistics } from 'node:v8';
    import { releaseHeapWhenQuiet } from ${JSON.stringify(MODULE)};
    let burst = [];
    for (let i = 0; i < 400_000; i++) burst.push({ text: 'x'.repeat(100) + i, list: [i, i + 1] });
    burst = null;
    console.log(JSON.stringify({ grown: getHeapStatistics().total_heap_size }));
    const log = { debug: (fields) => console.log(JSON.stringify(fields)) };
    releaseHeapWhenQuiet(log, { checkEveryMs: 100 });
    if (${JSON.stringify(afterBurst)} === 'busy') {
      setInterval(() => { const until = performance.now() + 50; while (performance.now() < until); }, 60);
    }
    setTimeout(() => process.exit(0), ${seconds * 1000});
  `;
  const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<Record<string, number>[]>((resolve) =>
    child.on('exit', () =>
      resolve(
        output
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ),
    ),
  );
}

test('once the event loop is quiet, the heap a burst grew is given back, once', async () => {
  const [grown, ...releases] = await runProcess('idle', 2);
  expect(grown!.grown).toBeGreaterThan(80 * 1024 * 1024);
  expect(releases).toHaveLength(1);
  expect(releases[0]!.afterMb).toBeLessThan(releases[0]!.heapMb / 2);
}, 30_000);

test('nothing is collected while the event loop is busy, nor without --expose-gc', async () => {
  const [, ...whileBusy] = await runProcess('busy', 2);
  expect(whileBusy).toEqual([]);
  const [, ...withoutGc] = await runProcess('idle', 1, []);
  expect(withoutGc).toEqual([]);
}, 30_000);
