/**
 * `npm test`: type-checks, lints, checks the formatting, validates the compose file, builds the frontends, and runs
 * every jest test against the real components: this machine's PostgreSQL and Redis (when none listens at the tests'
 * address, an embedded PostgreSQL and a redis-server are started there for the run), a Kafka-protocol broker
 * (librdkafka's mock cluster) when kcat is installed, and Chromium for the browser tests. Extra arguments go to jest
 * (e.g. `npm test -- services/catalog`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureFrontendsBuilt } from './lib/frontends.ts';
import { hasCommand, startKafkaMock } from './lib/kafka-mock.ts';
import { postgresForTests } from './lib/postgres.ts';
import { redisForTests } from './lib/redis.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
const ESLINT_CACHE = 'node_modules/.cache/eslint/';
const jestArgs = process.argv.slice(2);
const focused = jestArgs.some((arg) => !arg.startsWith('-'));

if (!focused) {
  console.log('› Type-checking (tsc)');
  for (const project of ['.', 'frontends']) {
    if (run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project]) !== 0) process.exit(1);
  }
  console.log('› Linting (eslint) and checking the formatting (prettier): `npm run format` fixes the latter');
  const lint = ['node_modules/eslint/bin/eslint.js', '--cache', '--cache-location', ESLINT_CACHE, '.'];
  if (run(process.execPath, lint) !== 0) process.exit(1);
  const format = ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'];
  if (run(process.execPath, format) !== 0) process.exit(1);
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

const postgres = await postgresForTests().catch(needs);
if (postgres.embedded) console.log(`› No PostgreSQL at ${new URL(postgres.url).host}: started one there for this run`);
const redis = await redisForTests().catch(needs);
if (redis.started) console.log(`› No Redis at ${new URL(redis.url).host}: started a redis-server there for this run`);

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
await redis.stop();
await postgres.stop();
process.exit(status);

/** A component the tests cannot run without: what is missing and how to provide it, instead of a thousand failures. */
function needs(error: Error): never {
  console.error(`› The tests need PostgreSQL and Redis.\n${error.message}`);
  process.exit(1);
}
