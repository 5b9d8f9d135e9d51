import knex, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex };

// `date` columns stay 'YYYY-MM-DD' strings: a JS Date would shift them by the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// bigint counters fit in a JS number for this product's volumes.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** A knex migration kept in code, so migrations load the same way under Node and under the test runner. */
export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

/**
 * A migration that creates one table, with the columns and keys `columns` declares, then runs `statements` (what the
 * table builder does not say: partial and expression indexes).
 */
export function createTableMigration(
  name: string,
  table: string,
  columns: (t: Knex.CreateTableBuilder, db: Knex) => void,
  ...statements: string[]
): Migration {
  return {
    name,
    async up(db) {
      await db.schema.createTable(table, (t) => columns(t, db));
      for (const statement of statements) await db.raw(statement);
    },
  };
}

/** A migration that adds to one table the columns or indexes `changes` declares. */
export function alterTableMigration(
  name: string,
  table: string,
  changes: (t: Knex.AlterTableBuilder) => void,
): Migration {
  return {
    name,
    async up(db) {
      await db.schema.alterTable(table, changes);
    },
  };
}

/**
 * The personal data registration asks for, with its sizes: an account's (optional) and a courtesy guest's (required;
 * the redemption form asks what registration asks). The partner company is always optional.
 */
export function personalDataColumns(t: Knex.CreateTableBuilder, required: boolean): void {
  for (const column of [t.string('cpf', 14), t.string('phone', 20), t.date('birth_date'), t.string('address', 500)]) {
    if (required) column.notNullable();
    else column.nullable();
  }
  t.string('partner_company', 255).nullable();
}

/** A pool whose unqualified tables resolve to the service's own schema. */
export function createDb(url: string, schema: string, poolMax: number): Knex {
  return knex({
    client: 'pg',
    connection: url,
    searchPath: [schema, 'public'],
    // An idle connection goes after 10 s, as the bus's own do: a burst's connections don't keep their slots.
    pool: { min: 0, max: poolMax, idleTimeoutMillis: 10_000 },
    acquireConnectionTimeout: 10000,
  });
}

/**
 * Makes a hot statement a named prepared statement (`query.options(prepared('orders.earlier'))`): each connection
 * parses and plans it once instead of at every call. PgBouncer keeps them per server connection in transaction mode
 * (`max_prepared_statements`). A name stands for one SQL text only.
 */
export const prepared = (name: string) => ({ name });

/**
 * A service's role owns its schema but may not create schemas in the database: `create schema if not exists`
 * checks that right even when the schema is there, so it is only run when the schema is missing.
 */
export async function createSchemaIfMissing(client: pg.ClientBase, schema: string): Promise<void> {
  const found = await client.query({ text: 'select 1 from pg_namespace where nspname = $1', values: [schema] });
  if (found.rowCount === 0) await client.query({ text: `create schema if not exists ${pg.escapeIdentifier(schema)}` });
}

/**
 * Creates the schema and runs pending migrations. Replicas starting together wait for each other on a session
 * advisory lock held on one connection for the whole run (knex's own lock table does not exist yet at first). A session
 * lock needs a session of its own: give `db` a pool on PostgreSQL itself (DATABASE_DIRECT_URL), not a transaction-mode
 * pooler, which could run the unlock on another server connection.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  if (!(await ownsSchema(db, schema))) return awaitOwnerMigrations(db, schema, migrations);
  const byName = new Map(migrations.map((migration) => [migration.name, migration]));
  const lock = await db.client.acquireConnection();
  const key = `migrate:${schema}`;
  try {
    await lock.query({ text: 'select pg_advisory_lock(hashtext($1))', values: [key] });
    await createSchemaIfMissing(lock, schema);
    await db.migrate.latest({
      schemaName: schema,
      tableName: 'knex_migrations',
      migrationSource: {
        getMigrations: async () => migrations.map((migration) => migration.name),
        getMigrationName: (name: string) => name,
        getMigration: async (name: string) => {
          const migration = byName.get(name)!;
          return { up: migration.up, down: migration.down ?? (async () => {}) };
        },
      },
    });
  } finally {
    await lock.query({ text: 'select pg_advisory_unlock(hashtext($1))', values: [key] }).catch(() => {});
    await db.client.releaseConnection(lock);
  }
}

/** Whether this role owns the schema (or may create it): a guest role in another's schema does not. */
async function ownsSchema(db: Knex, schema: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { owner: boolean }[] }>(
    `select pg_has_role(nspowner, 'USAGE') as owner from pg_namespace where nspname = ?`,
    [schema],
  );
  return rows.length === 0 || rows[0]!.owner;
}

const OWNER_MIGRATIONS_WAIT_MS = 120_000;
const UNDEFINED_TABLE = '42P01';

/**
 * A guest role (the door API in the tickets schema) may not change the schema: it waits for the owner's process to
 * apply every migration it knows, so it never runs against tables older than its code.
 */
async function awaitOwnerMigrations(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  const deadline = Date.now() + OWNER_MIGRATIONS_WAIT_MS;
  for (;;) {
    const missing = await pendingMigrations(db, schema, migrations);
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`schema ${schema}: its owner has not applied ${missing.map((m) => m.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The migrations of `migrations` the schema has not applied yet. */
export async function pendingMigrations(db: Knex, schema: string, migrations: Migration[]): Promise<Migration[]> {
  const applied = await db
    .withSchema(schema)
    .from('knex_migrations')
    .pluck('name')
    .catch((error: { code?: string }) => {
      if (error.code === UNDEFINED_TABLE) return [] as string[];
      throw error;
    });
  return migrations.filter((migration) => !applied.includes(migration.name));
}
