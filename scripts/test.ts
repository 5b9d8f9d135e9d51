/**
 * `npm test`: type-checks, validates the compose file, builds the frontends, and runs every jest test against the
 * real components: this machine's PostgreSQL and Redis, a Kafka-protocol broker (librdkafka's mock cluster) when
 * kcat is installed, and Chromium for the browser tests. Extra arguments go to jest (e.g. `npm test -- services/catalog`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureFrontendsBuilt } from './lib/frontends.ts';
import { hasCommand, startKafkaMock } from './lib/kafka-mock.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
const jestArgs = process.argv.slice(2);
const focused = jestArgs.some((arg) => !arg.startsWith('-'));

if (!focused) {
  console.log('› Type-checking (tsc)');
  for (const project of ['.', 'frontends']) {
    if (run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project]) !== 0) process.exit(1);
  }
  if (hasCommand('docker-compose')) {
    console.log('› Validating docker-compose.yml (docker-compose config -q)');
    if (run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']) !== 0) process.exit(1);
  } else {
    console.log('› docker-compose not installed: skipping the compose file check (apt-get install docker-compose)');
  }
}

// Built once here, so the browser tests running side by side never build at the same time.
console.log('› Building the frontends (unless frontends/dist is up to date)');
await ensureFrontendsBuilt();

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
};
const KAFKA_SUITE = '/services/platform/test/bus/kafka\\.test\\.ts$';
const jest = (args: string[]) => run(process.execPath, ['node_modules/jest/bin/jest.js', ...args, ...jestArgs], env);
let kafka: Awaited<ReturnType<typeof startKafkaMock>> | undefined;
if (env.KAFKA_BROKERS) {
  console.log(`› Bus contract tests run on both transports: postgres and kafka (KAFKA_BROKERS=${env.KAFKA_BROKERS})`);
} else if (hasCommand('kcat')) {
  kafka = await startKafkaMock();
  env.KAFKA_BROKERS = kafka.brokers;
  console.log(`› Bus contract tests run on both transports: postgres and kafka (mock cluster at ${kafka.brokers})`);
} else {
  console.log('› kcat not installed: the Kafka transport contract tests are SKIPPED; only the postgres transport runs');
  console.log("  (apt-get install kcat to run them against librdkafka's mock cluster)");
}

// The Kafka suite runs on its own: group membership rides on heartbeats, which a machine saturated by the
// system tests delays past the session timeout.
const ignoreKafka = ['--testPathIgnorePatterns', KAFKA_SUITE, '--testPathIgnorePatterns', '/node_modules/'];
let status: number;
if (focused) {
  status = jest(env.KAFKA_BROKERS ? [] : ignoreKafka);
} else {
  status = jest(ignoreKafka);
  if (env.KAFKA_BROKERS) {
    console.log('› Kafka transport contract tests');
    status = jest(['--runTestsByPath', 'services/platform/test/bus/kafka.test.ts']) || status;
  }
}
kafka?.stop();
process.exit(status);
