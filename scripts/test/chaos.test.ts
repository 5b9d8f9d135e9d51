/**
 * The chaos suite's short run (`npm run chaos -- --short`), beside anything running: on each bus, the processes of a
 * purchase and of a mass send killed in turn under load, PostgreSQL restarted and the bus down, and afterwards every
 * invariant holds (each order answered 201 paid with one ticket and one e-mail, no spot oversold or leaked, each
 * admission recorded once, no dead letter, every request answered once the product recovered).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hasCommand } from '../lib/kafka-mock.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

let run: ChildProcess | undefined;
// A run cut short takes every process it started with it: they share its process group.
afterAll(() => {
  if (run && run.exitCode === null && run.signalCode === null) process.kill(-run.pid!, 'SIGKILL');
});

test('the product survives a bad day: every invariant holds afterwards', async () => {
  let output = '';
  run = spawn(process.execPath, ['scripts/chaos/index.ts', '--short'], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [run.stdout!, run.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => run!.once('exit', resolve));

  expect(output.split('\n').filter((line) => line.startsWith('CHAOS FAILED'))).toEqual([]);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(output).toContain('Every invariant holds on the postgres bus.');
  if (hasCommand('kcat')) expect(output).toContain('Every invariant holds on the kafka bus.');
}, 900_000);
