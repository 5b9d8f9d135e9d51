import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gateway, paymentSandbox, services } from './apps.ts';

// What this machine's processes are and spend, read from /proc: for the benchmarks that measure the stack.

export const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

export const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined; // the process ended
  }
};

export const pids = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);

export const commandLine = (pid: number) => (read(pid, 'cmdline') ?? '').split('\0').filter(Boolean);

/**
 * Parent pid and CPU ticks (user + system) from /proc/PID/stat, and those of its children that ended and were
 * waited for; the name in parentheses may hold spaces.
 */
export function stat(pid: number): { parent: number; ticks: number; endedChildrenTicks: number } | undefined {
  const text = read(pid, 'stat');
  if (!text) return undefined;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    parent: Number(fields[1]),
    ticks: Number(fields[11]) + Number(fields[12]),
    endedChildrenTicks: Number(fields[13]) + Number(fields[14]),
  };
}

/** What the whole `npm start` stack should hold, at rest and after a sales rush. */
export const STACK_MEMORY_AIM_MB = 1200;

/** A field of /proc/PID/status or smaps_rollup, in MB. */
const megabytes = (text: string | undefined, field: string) =>
  Number(text?.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) / 1024;

/**
 * What a process holds, in MB: RSS counts the pages it shares (the node binary, PostgreSQL's shared buffers) in full;
 * PSS divides them among the processes that share them, so a sum of PSS is what a group of processes really holds.
 */
export const memory = (pid: number) => ({
  rss: megabytes(read(pid, 'status'), 'VmRSS'),
  pss: megabytes(read(pid, 'smaps_rollup'), 'Pss'),
});

/** `root` and every process under it. */
export function descendants(root: number): number[] {
  const parents = new Map(pids().map((pid) => [pid, stat(pid)?.parent]));
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, parent] of parents) if (parent === found[i]) found.push(pid);
  return found;
}

const appNames = new Map([...services, paymentSandbox, gateway].map((app) => [app.entry, app.name]));

/** What a process of the stack is, and whether it runs Node. */
export function label(pid: number): { name: string; node: boolean } {
  const [command = '?', ...args] = commandLine(pid);
  const app = args.map((arg) => appNames.get(arg)).find(Boolean);
  if (app) return { name: app, node: true };
  // PostgreSQL titles its processes: "postgres: checkpointer", "postgres: catalog ticketing 127.0.0.1(…) idle".
  if (command.startsWith('postgres:')) {
    const title = command.replace(/ \d+\.\d+\.\d+\.\d+\(\d+\).*$/, '').replace(/ worker \d+$/, ' worker');
    return { name: title, node: false };
  }
  if (command.endsWith('/postgres')) return { name: 'postgres (postmaster)', node: false };
  return { name: [command, ...args].join(' ').slice(0, 40), node: command.endsWith('node') };
}

/** The kind of a process of the stack: each app by name, PostgreSQL's and Redis's processes together. */
function kindOf(name: string): string {
  if (name.startsWith('postgres')) return 'PostgreSQL';
  return name.includes('redis-server') ? 'Redis' : name;
}

/** CPU time so far of `root` and everything under it, in ms by kind of process, `root` itself under `rootName`. */
export function cpuByProcess(root: number, rootName: string): Map<string, number> {
  const spent = new Map<string, number>();
  for (const pid of descendants(root)) {
    const times = stat(pid);
    if (times === undefined) continue;
    const { name } = label(pid);
    // PostgreSQL's sessions come and go with the pools: the postmaster counts those that ended.
    const ticks = times.ticks + (name === 'postgres (postmaster)' ? times.endedChildrenTicks : 0);
    const kind = pid === root ? rootName : kindOf(name);
    spent.set(kind, (spent.get(kind) ?? 0) + (ticks / ticksPerSecond) * 1000);
  }
  return spent;
}

/** What everything under `root` (not `root` itself) holds now, in MB by kind of process. */
export function memoryByProcess(root: number): Map<string, { rss: number; pss: number }> {
  const held = new Map<string, { rss: number; pss: number }>();
  for (const pid of descendants(root).slice(1)) {
    const kind = kindOf(label(pid).name);
    const { rss, pss } = memory(pid);
    const sum = held.get(kind) ?? { rss: 0, pss: 0 };
    held.set(kind, { rss: sum.rss + rss, pss: sum.pss + pss });
  }
  return held;
}
