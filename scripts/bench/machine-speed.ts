/**
 * How fast this machine is right now, as the benchmarks' common baseline: the hello-world Koa route (`hello.ts`)
 * called straight with autocannon, in requests a second. The machine is shared: the same run can be twice as fast
 * an hour later, so a figure in seconds is read beside the baseline taken with it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '../lib/free-port.ts';
import { waitForHttp } from '../lib/ready.ts';

/** Hello-world straight on the machine the time aims were set on (50 connections). */
export const AIMS_MACHINE_RATE = 28_640;

/** Starts the hello-world app, warms it up for a second, measures `seconds` at 50 connections, stops it. */
export async function helloWorldRate(seconds = 5): Promise<number> {
  const port = await freePort();
  const app = spawn(process.execPath, [fileURLToPath(new URL('hello.ts', import.meta.url))], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${port}/`;
    await waitForHttp(url, 30_000, () => app.exitCode !== null);
    await autocannon({ url, connections: 50, duration: 1 });
    const result = await autocannon({ url, connections: 50, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0) throw new Error('the hello-world baseline failed requests');
    return Math.round(result.requests.total / result.duration);
  } finally {
    app.kill('SIGTERM');
  }
}
