import { spawn, spawnSync } from 'node:child_process';

export const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/**
 * librdkafka's built-in mock cluster (through kcat) speaks the Kafka protocol with 3 brokers in memory.
 * kcat keeps it alive while its stdin stays open; the brokers' ports are random and printed on start.
 */
export async function startKafkaMock(): Promise<{
  brokers: string;
  /** Freezes every broker (SIGSTOP): connections stay open and nothing answers, until `resume()`. */
  pause(): void;
  resume(): void;
  stop(): void;
}> {
  const kcat = spawn('kcat', ['-b', '127.0.0.1:1', '-X', 'test.mock.num.brokers=3', '-P', '-t', 'mock-keepalive'], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const brokers = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`kcat did not start a mock cluster:\n${output}`)), 10_000);
    kcat.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /replaced with (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    kcat.once('exit', (code) => reject(new Error(`kcat exited (${code}):\n${output}`)));
  });
  kcat.stderr.resume();
  return {
    brokers,
    pause: () => kcat.kill('SIGSTOP'),
    resume: () => kcat.kill('SIGCONT'),
    stop() {
      kcat.kill('SIGCONT'); // a paused process would keep SIGTERM pending
      kcat.kill('SIGTERM');
    },
  };
}
