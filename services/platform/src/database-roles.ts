import pg from 'pg';
import { EVENT_OWNERS, SERVICES } from '@ticketing/proto';
import { ensureBusLog } from './bus/log-tables.ts';
import { userUrls, type ProvisioningOptions } from './provisioning.ts';

/** The schema each service owns (from the list of services); the two tickets processes share one. */
export type ServiceSchema = (typeof SERVICES)[number]['schema'];
export const SERVICE_SCHEMAS: readonly ServiceSchema[] = [...new Set(SERVICES.map((service) => service.schema))];

/**
 * Roles that work in another service's schema with less than its owner: tables they may only read, tables they may
 * not touch. The door API (internet-facing) shares the tickets tables with the worker, reads the public ticket keys
 * and never the private halves.
 */
const GUEST_ROLES = {
  tickets_verifier: { schema: 'tickets', readOnly: ['signing_keys'], withheld: ['signing_key_secrets'] },
} as const satisfies Record<
  string,
  { schema: ServiceSchema; readOnly: readonly string[]; withheld: readonly string[] }
>;
type GuestRole = keyof typeof GUEST_ROLES;

/** Every login role: one per service schema, and the guests. */
export const DATABASE_ROLES = [...SERVICE_SCHEMAS, ...(Object.keys(GUEST_ROLES) as GuestRole[])] as const;
export type DatabaseRole = ServiceSchema | GuestRole;

/** The schema a role works in, which is also the producer whose events it may publish on the bus. */
const schemaOf = (role: DatabaseRole): ServiceSchema =>
  role in GUEST_ROLES ? GUEST_ROLES[role as GuestRole].schema : (role as ServiceSchema);

const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 5;

/** The admin connection must also be allowed to create schemas. */
export interface DatabaseRolesOptions extends ProvisioningOptions<DatabaseRole> {
  /** The PostgreSQL transport's shared log (every service reads it; each appends only the events it owns). */
  busSchema?: string;
  /** Put before every role and schema name (tests run side by side in one cluster). */
  prefix?: string;
}

/**
 * One login role per service, owning its schema and nothing else: no other service can read its tables (identity's
 * signing keys included). The bus's log is shared through a group role every service belongs to, under row policies:
 * a role appends only the event types its service owns and moves only its own consumer groups' offsets.
 * Idempotent: run it at every start; it also sets the passwords again. Returns each role's connection URL.
 */
export async function provisionDatabaseRoles(options: DatabaseRolesOptions): Promise<Record<DatabaseRole, string>> {
  const { adminUrl, passwords, busSchema = 'bus', prefix = '' } = options;
  const id = pg.escapeIdentifier;
  const literal = pg.escapeLiteral;
  const bus = `${prefix}${busSchema}`;
  const busGroup = `${bus}_members`;
  const roleOf = (role: DatabaseRole) => `${prefix}${role}`;
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
    // The log belongs to whoever provisions: a member owning it could lift its row policies.
    const { rows } = await client.query<{ admin: string }>('select current_user as admin');
    await own(bus, rows[0]!.admin);
    for (const schema of SERVICE_SCHEMAS) {
      const role = roleOf(schema);
      await ensureRole(role, `login password ${literal(passwords[schema])}`);
      await own(role, role);
      // The role's own default: a pooler in transaction mode does not keep a `set search_path` between queries.
      await client.query(`alter role ${id(role)} set search_path = ${id(role)}, public`);
      await client.query(`revoke all on schema ${id(role)} from public`);
      await client.query(`grant ${id(busGroup)} to ${id(role)}`);
      // Services once made the log's tables themselves; now they may make nothing there.
      await client.query(
        `alter default privileges for role ${id(role)} in schema ${id(bus)} revoke all on tables from ${id(busGroup)}`,
      );
    }
    for (const [guest, { schema, readOnly, withheld }] of Object.entries(GUEST_ROLES)) {
      const role = roleOf(guest as GuestRole);
      const owner = id(roleOf(schema));
      const tables = `tables in schema ${owner}`;
      await ensureRole(role, `login password ${literal(passwords[guest as GuestRole])}`);
      await client.query(`alter role ${id(role)} set search_path = ${owner}, public`);
      await client.query(`grant usage on schema ${owner} to ${id(role)}`);
      // Its data, not its shape: tables the owner's migrations make later are granted as they appear.
      await client.query(`alter default privileges for role ${owner} in schema ${owner}
        grant select, insert, update, delete on tables to ${id(role)}`);
      await client.query(`alter default privileges for role ${owner} in schema ${owner}
        grant usage, select on sequences to ${id(role)}`);
      await client.query(`grant select, insert, update, delete on all ${tables} to ${id(role)}`);
      await client.query(`grant usage, select on all sequences in schema ${owner} to ${id(role)}`);
      // The owner's migration making such a table takes these grants off it too (the order of a first start).
      const revoke = (rights: string, table: string) =>
        client.query(`do $$ begin
            if to_regclass(${literal(`${owner}.${id(table)}`)}) is not null then
              revoke ${rights} on ${owner}.${id(table)} from ${id(role)};
            end if;
          end $$`);
      for (const table of readOnly) await revoke('insert, update, delete, truncate', table);
      for (const table of withheld) await revoke('all', table);
      await client.query(`grant ${id(busGroup)} to ${id(role)}`);
    }
    await restrictBusLog(client, bus, busGroup, new Map(DATABASE_ROLES.map((role) => [roleOf(role), schemaOf(role)])));
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
  return userUrls(options, DATABASE_ROLES, roleOf);
}

/**
 * The shared log's tables, made here by their owner, and the row policies over them: a role appends (and prunes)
 * only the topics its producer owns in EVENT_OWNERS, and reads and moves only the offsets of its own consumer groups
 * (named after its service: `tickets` for `tickets-worker`). Every member reads every message.
 */
async function restrictBusLog(client: pg.Client, bus: string, group: string, producers: Map<string, string>) {
  const b = pg.escapeIdentifier(bus);
  const g = pg.escapeIdentifier(group);
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`bus-schema:${bus}`]);
  await ensureBusLog(client, bus);
  await client.query(`create table if not exists ${b}.producers (role name primary key, producer text not null)`);
  await client.query(`create table if not exists ${b}.topic_owners (
    topic text not null, producer text not null, primary key (topic, producer))`);
  await client.query(`delete from ${b}.producers`);
  await client.query(`insert into ${b}.producers select * from unnest($1::name[], $2::text[])`, [
    [...producers.keys()],
    [...producers.values()],
  ]);
  const owners = Object.entries(EVENT_OWNERS).flatMap(([topic, names]) => names.map((name) => [topic, name]));
  await client.query(`delete from ${b}.topic_owners`);
  await client.query(`insert into ${b}.topic_owners select * from unnest($1::text[], $2::text[])`, [
    owners.map(([topic]) => topic),
    owners.map(([, name]) => name),
  ]);
  await client.query(`create or replace function ${b}.may_publish(topic text) returns boolean
    language sql stable as $$
      select exists (select from ${b}.topic_owners o join ${b}.producers p using (producer)
                     where p.role = current_user and o.topic = may_publish.topic)
    $$`);
  await client.query(`create or replace function ${b}.owns_group(group_id text) returns boolean
    language sql stable as $$
      select exists (select from ${b}.producers p where p.role = current_user
                     and (owns_group.group_id = p.producer or owns_group.group_id like p.producer || '-%'))
    $$`);
  const policies: [table: string, name: string, rule: string][] = [
    ['log', 'readers', 'for select using (true)'],
    ['log', 'publishers', `for insert with check (${b}.may_publish(topic))`],
    ['log', 'pruners', `for delete using (${b}.may_publish(topic))`],
    ['heads', 'readers', 'for select using (true)'],
    ['heads', 'publishers', `for insert with check (${b}.may_publish(topic))`],
    ['heads', 'counters', `for update using (${b}.may_publish(topic)) with check (${b}.may_publish(topic))`],
    ['offsets', 'consumers', `for all using (${b}.owns_group(group_id)) with check (${b}.owns_group(group_id))`],
  ];
  for (const table of ['log', 'heads', 'offsets'])
    await client.query(`alter table ${b}.${table} enable row level security`);
  for (const [table, name, rule] of policies) {
    await client.query(`drop policy if exists ${name} on ${b}.${table}`);
    await client.query(`create policy ${name} on ${b}.${table} ${rule}`);
  }
  await client.query(`revoke all on schema ${b} from public, ${g}`);
  await client.query(`grant usage on schema ${b} to ${g}`);
  await client.query(`revoke all on all tables in schema ${b} from public, ${g}`);
  await client.query(`grant select, insert, delete on ${b}.log to ${g}`);
  await client.query(`grant select, insert, update on ${b}.heads, ${b}.offsets to ${g}`);
  await client.query(`grant select on ${b}.producers, ${b}.topic_owners to ${g}`);
}
