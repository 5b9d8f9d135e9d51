/**
 * `npm run chaos`: the product surviving a bad day. Starts it as `npm start` does (a process per service under the
 * supervisor, its own PostgreSQL and Redis, free ports), drives a mixed load — buyers buying with PIX and paying in
 * the sandbox, courtesy redemptions, door readings, a mass send of courtesies — and meanwhile kills every process in
 * turn with SIGKILL, restarts PostgreSQL and takes the bus down. Then it checks the invariants in the stack's own
 * database and mail catcher, and prints what it did and how long each recovery took. Exits 1, with a
 * `CHAOS FAILED — …` line for each, when an invariant breaks or the product answered what it never may.
 *
 * Runs on the PostgreSQL bus, then on Kafka (librdkafka's mock cluster, through kcat). `--short` is `npm test`'s
 * run: fewer kills and a shorter bus outage. `--transport postgres|kafka` runs one of them.
 */
import { parseArgs } from 'node:util';
import { hasCommand } from '../lib/kafka-mock.ts';
import { FULL, SHORT } from './plan.ts';
import { printReport } from './report.ts';
import { runChaos, type Transport } from './run.ts';

const { values } = parseArgs({
  options: { short: { type: 'boolean', default: false }, transport: { type: 'string' } },
});
const plan = values.short ? SHORT : FULL;
const named = values.transport === 'postgres' || values.transport === 'kafka' ? values.transport : undefined;
const kafka = hasCommand('kcat');
if (!kafka) {
  console.log("kcat is not installed: no Kafka run (apt-get install kcat: it runs librdkafka's mock Kafka cluster)");
  if (named === 'kafka') process.exit(1);
}
const transports: Transport[] = named ? [named] : kafka ? ['postgres', 'kafka'] : ['postgres'];

let failed = false;
for (const transport of transports) {
  console.log(`\n── Chaos on the ${transport} bus (${plan.name} plan) ──`);
  const report = await runChaos(plan, transport, (line) => console.log(`  ${line}`));
  failed = printReport(report) || failed;
}
process.exit(failed ? 1 : 0);
