import pg from 'pg';

/** The schema each service owns; the two tickets processes share one. */
export const SERVICE_SCHEMAS = ['identity', 'catalog', 'orders', 'payments', 'courtesy', 'tickets', 'mail'] as const;
export type ServiceSchema = (typeof SERVICE_SCHEMAS)[number];

const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 5;

export interface DatabaseRolesOptions {
  /** A connection allowed to create roles and schemas (the database owner or a superuser). */
  adminUrl: string;
  /** The password each service's role logs in with. */
  passwords: Record<ServiceSchema, string>;
  /** The PostgreSQL transport's shared log (every service reads and writes it). */
  busSchema?: string;
  /** Put before every role and schema name (tests run side by side in one cluster). */
  prefix?: string;
}

/**
 * One login role per service, owning its schema and nothing else: no other service can read its tables (identity's
 * signing keys included). The bus's log is shared through a group role every service belongs to; tables any member
 * creates there are granted to the group. Idempotent: run it at every start; it also sets the passwords again.
 * Returns each service's connection URL.
 */
export async function provisionDatabaseRoles(options: DatabaseRolesOptions): Promise<Record<ServiceSchema, string>> {
  const { adminUrl, passwords, busSchema = 'bus', prefix = '' } = options;
  const id = pg.escapeIdentifier;
  const literal = pg.escapeLiteral;
  const bus = `${prefix}${busSchema}`;
  const busGroup = `${bus}_members`;
  const roleOf = (schema: ServiceSchema) => `${prefix}${schema}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const provision = async () => {
    // Roles are cluster-wide: starts racing each other (replicas, a restart) wait here instead of failing.
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`database-roles:${prefix}`]);
    const ensureRole = async (role: string, login: string) =>
      client.query(
        `do $$ begin
             if not exists (select from pg_roles where rolname = ${literal(role)}) then create role ${id(role)}; end if;
           end $$; alter role ${id(role)} ${login}`,
      );
    // A schema made before roles existed (an older data directory) is handed over with everything in it.
    const own = async (schema: string, owner: string) => {
      await client.query(`create schema if not exists ${id(schema)} authorization ${id(owner)}`);
      await client.query(`alter schema ${id(schema)} owner to ${id(owner)}`);
      await client.query(
        `do $$ declare r record; begin
             for r in select c.oid::regclass as name, c.relkind from pg_class c
                        join pg_namespace n on n.oid = c.relnamespace
                       where n.nspname = ${literal(schema)} and c.relkind in ('r', 'p', 'v', 'm')
                         and c.relowner <> ${literal(owner)}::regrole loop
               execute format('alter %s %s owner to %I',
                 case r.relkind when 'v' then 'view' when 'm' then 'materialized view' else 'table' end,
                 r.name, ${literal(owner)});
             end loop;
           end $$`,
      );
    };
    await ensureRole(busGroup, 'nologin');
    await own(bus, busGroup);
    for (const schema of SERVICE_SCHEMAS) {
      const role = roleOf(schema);
      await ensureRole(role, `login password ${literal(passwords[schema])}`);
      await own(role, role);
      // The role's own default: a pooler in transaction mode does not keep a `set search_path` between queries.
      await client.query(`alter role ${id(role)} set search_path = ${id(role)}, public`);
      await client.query(`revoke all on schema ${id(role)} from public`);
      await client.query(`grant ${id(busGroup)} to ${id(role)}`);
      await client.query(
        `alter default privileges for role ${id(role)} in schema ${id(bus)} grant all on tables to ${id(busGroup)}`,
      );
    }
    await client.query('commit');
  };
  try {
    // Role and ownership changes touch catalogs shared by the whole cluster, where another session's DDL can
    // deadlock with them; PostgreSQL then aborts one side, and the whole (idempotent) transaction runs again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await provision();
        break;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === DEADLOCK_ATTEMPTS) throw error;
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  return Object.fromEntries(
    SERVICE_SCHEMAS.map((schema) => {
      const own = new URL(url);
      own.username = encodeURIComponent(roleOf(schema));
      own.password = encodeURIComponent(passwords[schema]);
      return [schema, own.toString()];
    }),
  ) as Record<ServiceSchema, string>;
}
