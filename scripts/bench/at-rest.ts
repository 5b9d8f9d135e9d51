/**
 * `npm run stack:usage`: what a running `npm start` costs while nothing happens.
 *
 * Finds the stack (the `scripts/start.ts` process with STACK_PROCESS_GROUP, or the pid given with `--pid`), takes
 * every process under it (the services, gateway, Asaas sandbox, embedded PostgreSQL and its backends, a Redis of its
 * own) and its parent, and samples them from /proc over a window (`--seconds`, default 60): CPU % of one core over
 * the window, RSS and PSS at its end. RSS counts shared pages (PostgreSQL's shared buffers, the node binary) once per
 * process; PSS divides them among the processes that share them, so its total is what the stack really holds.
 *
 * Aims: each Node process ≤ 0.5 % CPU at rest, the whole stack ≤ 1.2 GB RSS.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  commandLine,
  descendants,
  label as processLabel,
  memory,
  pids,
  STACK_MEMORY_AIM_MB,
  read,
  stat,
  ticksPerSecond,
} from '../lib/processes.ts';

const CPU_AIM_PERCENT = 0.5;

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, pid: { type: 'string' } } });
const windowSeconds = Number(values.seconds);

function findLauncher(): number {
  if (values.pid) return Number(values.pid);
  const launchers = pids().filter(
    (pid) =>
      commandLine(pid).some((arg) => arg.endsWith('scripts/start.ts')) &&
      (read(pid, 'environ') ?? '').split('\0').includes('STACK_PROCESS_GROUP=1'),
  );
  if (launchers.length === 0) {
    console.error('No npm start is running (no scripts/start.ts process with STACK_PROCESS_GROUP)');
    process.exit(1);
  }
  if (launchers.length > 1) console.log(`Several stacks run (${launchers.join(', ')}): measuring ${launchers[0]}`);
  return launchers[0]!;
}

/** The launcher, its parent (the `npm start` process the terminal runs) and every descendant. */
function stackProcesses(launcher: number): number[] {
  const found = descendants(launcher);
  const parent = stat(launcher)?.parent;
  if (parent && commandLine(parent).some((arg) => arg.endsWith('scripts/start.ts'))) found.unshift(parent);
  return found;
}

/** What a process is, and whether it runs Node (the CPU aim is for those). */
function label(pid: number, launcher: number): { name: string; node: boolean } {
  if (pid === launcher) return { name: 'launcher (+ mail catcher)', node: true };
  if (commandLine(pid).some((arg) => arg.endsWith('scripts/start.ts')))
    return { name: 'npm start (parent)', node: true };
  return processLabel(pid);
}

const launcher = findLauncher();
const before = new Map(stackProcesses(launcher).map((pid) => [pid, stat(pid)?.ticks ?? 0]));
console.log(`Sampling the ${before.size} processes of the stack under ${launcher} for ${windowSeconds} s…`);
await delay(windowSeconds * 1000);
// Those there at the end: one started meanwhile (a database session) spent all its time in the window.
const members = stackProcesses(launcher);

interface Row {
  name: string;
  count: number;
  node: boolean;
  cpu: number;
  rss: number;
  pss: number;
}
const rows = new Map<string, Row>();
for (const pid of members) {
  const ticks = stat(pid)?.ticks;
  if (ticks === undefined) continue;
  const start = before.get(pid) ?? 0;
  const { name, node } = label(pid, launcher);
  const row = rows.get(name) ?? { name, count: 0, node, cpu: 0, rss: 0, pss: 0 };
  row.count++;
  row.cpu += ((ticks - start) / ticksPerSecond / windowSeconds) * 100;
  const held = memory(pid);
  row.rss += held.rss;
  row.pss += held.pss;
  rows.set(name, row);
}

const table = [...rows.values()].sort((a, b) => Number(b.node) - Number(a.node) || b.pss - a.pss);
const total = table.reduce((sum, row) => ({ cpu: sum.cpu + row.cpu, rss: sum.rss + row.rss, pss: sum.pss + row.pss }), {
  cpu: 0,
  rss: 0,
  pss: 0,
});
const width = Math.max(...table.map((row) => row.name.length + 5));
const line = (name: string, cpu: number, rss: number, pss: number) =>
  `${name.padEnd(width)} ${cpu.toFixed(2).padStart(7)} ${rss.toFixed(1).padStart(9)} ${pss.toFixed(1).padStart(9)}`;
console.log(`\n${'process'.padEnd(width)} ${'CPU %'.padStart(7)} ${'RSS MB'.padStart(9)} ${'PSS MB'.padStart(9)}`);
for (const row of table)
  console.log(line(row.count > 1 ? `${row.name} ×${row.count}` : row.name, row.cpu, row.rss, row.pss));
console.log(line(`total (${members.length} processes)`, total.cpu, total.rss, total.pss));

// A Node process is one row each; only PostgreSQL's processes share a row.
const busy = table.filter((row) => row.node && row.cpu > CPU_AIM_PERCENT);
console.log(
  `\nCPU at rest ≤ ${CPU_AIM_PERCENT} % per Node process: ${busy.length === 0 ? 'met' : `missed by ${busy.map((row) => `${row.name} (${row.cpu.toFixed(2)} %)`).join(', ')}`}`,
);
console.log(
  `Stack memory ≤ ${STACK_MEMORY_AIM_MB} MB RSS: ${total.rss <= STACK_MEMORY_AIM_MB ? 'met' : 'missed'} (${total.rss.toFixed(0)} MB RSS, ${total.pss.toFixed(0)} MB PSS)`,
);
