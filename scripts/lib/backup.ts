/**
 * Backups of the platform's database with pg_dump's custom format, and restores that replace the database whole:
 * the archive goes into a new database, which takes the old one's name only once pg_restore has succeeded (a failed
 * restore leaves the database as it was). A database with data is replaced only when forced, and is then kept
 * under another name.
 */
import { statSync } from 'node:fs';
import pg from 'pg';
import { Refusal, sql, type PgClient } from './pg-client.ts';

const id = pg.escapeIdentifier;
const literal = pg.escapeLiteral;
/** PostgreSQL's longest name (NAMEDATALEN - 1). */
const MAX_NAME = 63;
/** How long a swap waits for the sessions it ended to go away. */
const SESSIONS_GONE_MS = 30_000;

export interface OrderCount {
  schema: string;
  status: string;
  count: number;
}

export interface DatabaseSummary {
  schemas: string[];
  tables: number;
  orders: OrderCount[];
}

/** Schemas holding something: `public` only when it has a relation. */
async function schemasOf(client: PgClient, database: string): Promise<string[]> {
  const rows = await sql(
    client,
    database,
    `select n.nspname from pg_namespace n
      where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
        and (n.nspname <> 'public' or exists (select from pg_class c where c.relnamespace = n.oid))
      order by 1`,
  );
  return rows.map(([name]) => name!);
}

/** Orders by status in every schema with an `orders` table (the orders service's, whatever its schema is called). */
async function orderCounts(client: PgClient, database: string): Promise<OrderCount[]> {
  const schemas = await sql(
    client,
    database,
    `select table_schema from information_schema.columns
      where table_name = 'orders' and column_name = 'status' order by 1`,
  );
  if (schemas.length === 0) return [];
  const counts = schemas.map(
    ([schema]) => `select ${literal(schema!)}, status, count(*) from ${id(schema!)}.orders group by status`,
  );
  const rows = await sql(client, database, `${counts.join(' union all ')} order by 1, 2`);
  return rows.map(([schema, status, count]) => ({ schema: schema!, status: status!, count: Number(count) }));
}

async function summarize(client: PgClient, database: string): Promise<DatabaseSummary> {
  const [[tables]] = await sql(
    client,
    database,
    `select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'`,
  );
  return {
    schemas: await schemasOf(client, database),
    tables: Number(tables),
    orders: await orderCounts(client, database),
  };
}

/** Dumps `database` to `file` (custom format). The counts are read right after the dump. */
export async function backupDatabase(
  client: PgClient,
  database: string,
  file: string,
): Promise<DatabaseSummary & { bytes: number }> {
  await client.run('pg_dump', database, ['--format=custom', '--no-password'], { stdout: file });
  // The archive must read back: a dump cut short fails here, not on the day of the restore.
  await client.run('pg_restore', null, ['--list'], { stdin: file });
  return { ...(await summarize(client, database)), bytes: statSync(file).size };
}

async function databaseExists(client: PgClient, name: string): Promise<boolean> {
  return (await sql(client, 'postgres', `select 1 from pg_database where datname = ${literal(name)}`)).length > 0;
}

async function otherSessions(client: PgClient, database: string): Promise<number> {
  const [[count]] = await sql(
    client,
    'postgres',
    `select count(*) from pg_stat_activity where datname = ${literal(database)} and pid <> pg_backend_pid()`,
  );
  return Number(count);
}

/** Ends every session on `database` (which no longer takes new ones) and waits until they are gone. */
async function endSessions(client: PgClient, database: string): Promise<void> {
  await sql(
    client,
    'postgres',
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = ${literal(database)} and pid <> pg_backend_pid()`,
  );
  const deadline = Date.now() + SESSIONS_GONE_MS;
  while ((await otherSessions(client, database)) > 0) {
    if (Date.now() > deadline)
      throw new Refusal(`As sessões em ${database} não terminaram em ${SESSIONS_GONE_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const named = (database: string, suffix: string) => `${database.slice(0, MAX_NAME - suffix.length)}${suffix}`;

export interface RestoreResult extends DatabaseSummary {
  /** Where the data the restore replaced is kept (only when the database had data). */
  previous?: string;
}

/**
 * Restores `file` as `database`. A database with data is replaced only with `force` (its sessions are ended and it
 * is kept under another name); without data, it is replaced and dropped.
 */
export async function restoreDatabase(
  client: PgClient,
  database: string,
  file: string,
  { force = false }: { force?: boolean } = {},
): Promise<RestoreResult> {
  await client.run('pg_restore', null, ['--list'], { stdin: file });
  const exists = await databaseExists(client, database);
  const existing = exists ? await schemasOf(client, database) : [];
  if (existing.length > 0 && !force) {
    throw new Refusal(
      `O banco ${database} não está vazio (schemas: ${existing.join(', ')}). Para substituí-lo, repita com --force: ` +
        `as sessões abertas nele são encerradas e os dados atuais ficam guardados em outro banco.`,
    );
  }
  if (exists && !force && (await otherSessions(client, database)) > 0) {
    throw new Refusal(`Há sessões abertas em ${database}: pare os serviços (ou repita com --force, que as encerra).`);
  }

  const suffix = stamp();
  const incoming = named(database, `_restoring_${suffix}`);
  await sql(client, 'postgres', `create database ${id(incoming)}`);
  try {
    await client.run('pg_restore', incoming, ['--exit-on-error', '--no-password'], { stdin: file });
  } catch (error) {
    await sql(client, 'postgres', `drop database if exists ${id(incoming)}`);
    const missingRole = /role "([^"]+)" does not exist/.exec((error as Error).message);
    if (missingRole) {
      throw new Refusal(
        `${(error as Error).message}\nO papel ${missingRole[1]} não existe neste servidor: crie os papéis antes ` +
          `(o passo database-roles do docker compose, ou o Job database-roles) e repita.`,
      );
    }
    throw error;
  }

  if (!exists) {
    await sql(client, 'postgres', `alter database ${id(incoming)} rename to ${id(database)}`);
    return summarize(client, database);
  }
  const previous = named(database, `_before_restore_${suffix}`);
  await sql(client, 'postgres', `alter database ${id(database)} with allow_connections false`);
  try {
    await endSessions(client, database);
    // One transaction: the name never points at nothing.
    await sql(
      client,
      'postgres',
      `alter database ${id(database)} rename to ${id(previous)}; alter database ${id(incoming)} rename to ${id(database)}`,
    );
  } catch (error) {
    await sql(client, 'postgres', `alter database ${id(database)} with allow_connections true`);
    await sql(client, 'postgres', `drop database if exists ${id(incoming)}`);
    throw error;
  }
  await sql(client, 'postgres', `alter database ${id(previous)} with allow_connections true`);
  if (existing.length === 0) {
    await sql(client, 'postgres', `drop database ${id(previous)}`);
    return summarize(client, database);
  }
  return { ...(await summarize(client, database)), previous };
}

/** What a backup or restore holds, for the terminal. */
export function describeSummary(summary: DatabaseSummary): string {
  const bySchema = new Map<string, OrderCount[]>();
  for (const row of summary.orders) bySchema.set(row.schema, [...(bySchema.get(row.schema) ?? []), row]);
  const orders = [...bySchema].map(([schema, rows]) => {
    const total = rows.reduce((sum, row) => sum + row.count, 0);
    return `  pedidos em ${schema}: ${total} (${rows.map((row) => `${row.status} ${row.count}`).join(', ')})`;
  });
  return [
    `  schemas (${summary.schemas.length}): ${summary.schemas.join(', ') || 'nenhum'}`,
    `  tabelas: ${summary.tables}`,
    ...(orders.length > 0 ? orders : ['  pedidos: nenhuma tabela orders']),
  ].join('\n');
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
