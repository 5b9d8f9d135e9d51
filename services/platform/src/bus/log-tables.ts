import pg from 'pg';
import { createSchemaIfMissing } from '../db.ts';

const TABLES = ['heads', 'log', 'offsets'];

/**
 * The PostgreSQL transport's tables: one head (next offset) per partition, the messages, and each group's offsets.
 * Where services have roles of their own, the provisioning step makes them (services may create nothing there);
 * on a bare machine, the first service to publish or subscribe does.
 */
export async function ensureBusLog(client: pg.ClientBase, schema: string): Promise<void> {
  const { rows } = await client.query<{ found: number }>(
    'select count(*)::int as found from pg_tables where schemaname = $1 and tablename = any($2::text[])',
    [schema, TABLES],
  );
  if (rows[0]!.found === TABLES.length) return;
  const s = pg.escapeIdentifier(schema);
  await createSchemaIfMissing(client, schema);
  await client.query(`create table if not exists ${s}.heads (
    topic text not null, partition int not null, next_offset bigint not null,
    primary key (topic, partition))`);
  await client.query(`create table if not exists ${s}.log (
    topic text not null, partition int not null, "offset" bigint not null,
    key text not null, value text not null, created_at timestamptz not null default now(),
    primary key (topic, partition, "offset"))`);
  await client.query(`create table if not exists ${s}.offsets (
    group_id text not null, topic text not null, partition int not null, next_offset bigint not null default 0,
    primary key (group_id, topic, partition))`);
}
