/**
 * `npm run backup` and `npm run restore`, run as the user runs them, on orders the orders service really made in a
 * database of their own on the machine's PostgreSQL: the same orders come back after the schemas are dropped, a
 * database with data is replaced only when forced (and kept), and a restore that fails halfway changes nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TEST_DATABASE_URL, uniqueName } from '@ticketing/testkit';
import { bought, startOrders } from '../../services/orders/test/support.ts';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const database = uniqueName('backup');
const url = (name: string) => Object.assign(new URL(TEST_DATABASE_URL), { pathname: `/${name}` }).href;
const scratch = url(database);
const dir = mkdtempSync(join(tmpdir(), 'backup-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The npm script's own entry point, with the database in DATABASE_URL as the user gives it. */
function npmScript(script: 'backup' | 'restore', args: string[], databaseUrl = scratch): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts', `${script}.ts`), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const admin = (text: string) => query(TEST_DATABASE_URL, text);
let ordersSchema = '';
const ordersIn = (databaseUrl: string) =>
  query<{ id: string; status: string; amount: string }>(
    databaseUrl,
    `select id, status, amount from ${pg.escapeIdentifier(ordersSchema)}.orders order by id`,
  );
const databasesLike = async (prefix: string) =>
  (await admin(`select datname from pg_database where datname like '${prefix}%' order by 1`)).map((row) => row.datname);

let made: { id: string; status: string; amount: string }[] = [];
/** A role the last test makes and drops. */
const role = uniqueName('gone');

beforeAll(async () => {
  await admin(`create database ${database}`);
  // The orders service with its tables (and its bus) in the scratch database; catalog and the others in `test`.
  const h = await startOrders({ env: { DATABASE_URL: scratch } });
  try {
    ordersSchema = String(h.orders.config.DB_SCHEMA);
    const workshop = await h.createEvent({ price: '150.00', maxAttendees: 10 });
    const congress = await h.createEvent({ price: '480.00', maxAttendees: 10 });
    const ana = await h.buyer({ name: 'Ana Beatriz Souza' });
    const bruno = await h.buyer({ name: 'Bruno Carvalho' });
    await bought(h, ana, workshop.id);
    await bought(h, bruno, congress.id, 'boleto');
    const cancelled = await bought(h, bruno, workshop.id);
    expect((await h.request('DELETE', `/api/orders/${cancelled.order.id}/cancel`, { token: bruno.token })).status).toBe(
      200,
    );
  } finally {
    await h.stop();
  }
  made = await ordersIn(scratch);
}, 60_000);

afterAll(async () => {
  for (const name of await databasesLike(database))
    await admin(`drop database ${pg.escapeIdentifier(name)} with (force)`);
  await admin(`drop role if exists ${role}`);
  rmSync(dir, { recursive: true, force: true });
});

test('a backup lists what it holds; dropped schemas come back with the same orders', async () => {
  expect(made.map((order) => [order.status, order.amount]).sort()).toEqual([
    ['cancelled', '155.00'],
    ['pending', '155.00'],
    ['pending', '485.00'],
  ]);
  const file = join(dir, 'first.dump');
  const backup = await npmScript('backup', ['--out', file]);
  expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
  expect(backup.stdout).toContain(`pedidos em ${ordersSchema}: 3 (cancelled 1, pending 2)`);
  expect(backup.stdout).toMatch(/arquivo: .*first\.dump \(\d+(\.\d)? kB\)/);

  const schemas = (
    await query(
      scratch,
      `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname not in ('public', 'information_schema')`,
    )
  ).map((row) => row.nspname as string);
  expect(schemas).toContain(ordersSchema);
  await query(scratch, schemas.map((schema) => `drop schema ${pg.escapeIdentifier(schema)} cascade;`).join(' '));

  const restore = await npmScript('restore', [file]);
  expect({ code: restore.code, stderr: restore.stderr }).toEqual({ code: 0, stderr: '' });
  expect(restore.stdout).toContain(`pedidos em ${ordersSchema}: 3 (cancelled 1, pending 2)`);
  expect(await ordersIn(scratch)).toEqual(made);
  // The emptied database it replaced is gone; nothing half-made is left.
  expect(await databasesLike(database)).toEqual([database]);
}, 60_000);

test('a database with data is replaced only with --force, and is then kept under another name', async () => {
  const file = join(dir, 'second.dump');
  expect((await npmScript('backup', ['--out', file])).code).toBe(0);
  await query(scratch, `delete from ${pg.escapeIdentifier(ordersSchema)}.orders where status = 'cancelled'`);

  const refused = await npmScript('restore', [file]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`O banco ${database} não está vazio`);
  expect(await ordersIn(scratch)).toHaveLength(2);

  const forced = await npmScript('restore', [file, '--force']);
  expect({ code: forced.code, stderr: forced.stderr }).toEqual({ code: 0, stderr: '' });
  expect(await ordersIn(scratch)).toEqual(made);
  const previous = /Os dados anteriores estão no banco (\S+);/.exec(forced.stdout)?.[1];
  expect(previous).toMatch(new RegExp(`^${database}_before_restore_\\d{14}$`));
  expect(await ordersIn(url(previous!))).toHaveLength(2);
}, 60_000);

test('a restore that fails halfway leaves the database as it was, and says what is missing', async () => {
  // A table owned by a role the server will no longer have when the archive comes back.
  await admin(`create role ${role}`);
  await query(
    scratch,
    `create table ${pg.escapeIdentifier(ordersSchema)}.notes (body text); alter table ${pg.escapeIdentifier(ordersSchema)}.notes owner to ${role}`,
  );
  const file = join(dir, 'with-role.dump');
  expect((await npmScript('backup', ['--out', file])).code).toBe(0);
  await query(scratch, `drop table ${pg.escapeIdentifier(ordersSchema)}.notes`);
  await admin(`drop role ${role}`);
  const before = await databasesLike(database);

  const failed = await npmScript('restore', [file, '--force']);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain(`O papel ${role} não existe neste servidor`);
  expect(await ordersIn(scratch)).toEqual(made);
  expect(await databasesLike(database)).toEqual(before);
}, 60_000);
