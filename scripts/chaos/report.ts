import type { ChaosReport } from './run.ts';

const seconds = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);
const REFUSED = new Set(['network', '502', '503', '504']);

/** "moment  outcome×count, …" lines, refusals counted apart. */
function attempts(title: string, counts: ChaosReport['load']): string[] {
  const lines = [`  ${title}:`];
  for (const [moment, byOutcome] of counts) {
    const outcomes = [...byOutcome].sort(([a], [b]) => a.localeCompare(b));
    const refused = outcomes.filter(([outcome]) => REFUSED.has(outcome)).reduce((sum, [, n]) => sum + n, 0);
    const shown = outcomes.map(([outcome, n]) => `${outcome}×${n}`).join(', ');
    lines.push(`    ${moment.padEnd(26)} ${shown}${refused ? `  (refused: ${refused})` : ''}`);
  }
  return lines;
}

/** The same line many times over, once with its count. */
function grouped(lines: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}

/** Prints what the run did and found; true when something broke. */
export function printReport(report: ChaosReport): boolean {
  const { record, massSend } = report;
  const lines = [
    `  Faults, in order, and the time to recover (ready = /readyz answers; recovered = real work done again):`,
    ...report.recoveries.map(
      (recovery) =>
        `    ${recovery.fault.padEnd(26)} ready ${seconds(recovery.readyMs).padStart(6)}   recovered ${seconds(recovery.recoveredMs).padStart(6)}${recovery.note ? `   (${recovery.note})` : ''}`,
    ),
    `  Load: ${record.rounds} rounds of ${report.plan.users} buyers; ${record.purchases.size} orders answered 201 and paid ` +
      `in the sandbox, ${record.soldOut} answered sold out; ${record.redemptions.length} courtesies redeemed; ` +
      `${record.admissions.size} admissions at the door, ${record.rereads} tickets read again and refused as used`,
    ...(massSend
      ? [
          `  Mass send: ${massSend.guests.length} guests` +
            (massSend.caughtBeforeMailKill === undefined
              ? ''
              : `, ${massSend.caughtBeforeMailKill} invitations delivered when mail was killed`),
        ]
      : []),
    ...attempts('Requests of the load, by the fault under way (outcome×count)', report.load),
    ...attempts('Requests of the recovery probes', report.probes),
    ...attempts('The last round, every buyer at once after recovery', report.afterRecovery),
    `  Settled in ${seconds(report.settledMs)}; run took ${seconds(report.durationMs)} (stack start ${seconds(report.startedMs)})`,
    `  Logs of every process: ${report.logFile}`,
  ];
  console.log(lines.join('\n'));
  if (report.failures.length === 0) {
    console.log(`  Every invariant holds on the ${report.transport} bus.`);
    return false;
  }
  for (const failure of grouped(report.failures)) console.log(`CHAOS FAILED — ${report.transport} bus: ${failure}`);
  return true;
}
