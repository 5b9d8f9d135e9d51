/**
 * `npm start` itself, as a second product beside anything running (STACK_PORTS=free): a service killed with SIGKILL
 * comes back while the others keep answering, and Ctrl-C stops every process it started.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@ticketing/testkit';
import { alive } from './alive.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every process below `pid`, with its command line. */
function descendants(pid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // exited while we looked
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      try {
        found.push({ pid: child, command: readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ') });
      } catch {
        continue;
      }
      visit(child);
    }
  };
  visit(pid);
  return found;
}

const answers = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

test('npm start brings back a SIGKILLed service while the others keep answering; Ctrl-C stops everything', async () => {
  let output = '';
  const start = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, STACK_PORTS: 'free', STACK_DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [start.stdout, start.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise((resolve) => start.once('exit', resolve));
  try {
    await waitFor(() => output.includes('Press Ctrl-C to stop.') || start.exitCode !== null, { timeoutMs: 150_000 });
    expect(output).toContain('Ingressos is running');
    const ports = Object.fromEntries(
      [...output.matchAll(/([\w-]+) :(\d+)/g)].map(([, name, port]) => [name!, Number(port)]),
    );
    const site = `http://127.0.0.1:${ports.gateway}`;
    const orders = () => descendants(start.pid!).find((p) => p.command.includes('services/orders/src/main.ts'));
    const killed = orders()!.pid;

    process.kill(killed, 'SIGKILL');
    // Until orders answers again from a new process, the site keeps answering through the gateway.
    let answered = 0;
    await waitFor(
      async () => {
        expect(await answers(`${site}/api/events`)).toBe(true);
        expect(await answers(`http://127.0.0.1:${ports.identity}/readyz`)).toBe(true);
        answered += 1;
        const now = orders();
        return now !== undefined && now.pid !== killed && (await answers(`http://127.0.0.1:${ports.orders}/readyz`));
      },
      { timeoutMs: 60_000 },
    );
    expect(answered).toBeGreaterThan(1);
    expect(output).toContain('[orders] stopped unexpectedly (signal SIGKILL); restart #1 in 1 s');

    const stackPids = descendants(start.pid!).map((p) => p.pid);
    expect(stackPids.length).toBeGreaterThanOrEqual(12); // 8 services, sandbox, gateway, PostgreSQL, Redis
    start.kill('SIGINT');
    await exited;
    await waitFor(() => stackPids.filter(alive).length === 0, { timeoutMs: 30_000 });
    expect(start.exitCode).toBe(0);
  } finally {
    if (start.exitCode === null) start.kill('SIGINT');
    await exited;
  }
}, 240_000);
