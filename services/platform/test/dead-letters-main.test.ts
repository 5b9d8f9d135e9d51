import { execFile } from 'node:child_process';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { z } from 'zod';
import {
  busMigrations,
  createDb,
  createLogger,
  createMetrics,
  createOutbox,
  createPostgresTransport,
  migrate,
  startConsumers,
  startRelay,
  type Knex,
} from '@ticketing/platform';
import { TEST_DATABASE_URL, dropSchemas, testKeyRing, uniqueName, waitFor } from '@ticketing/testkit';

const CLI = fileURLToPath(new URL('../src/dead-letters-main.ts', import.meta.url));
// Each run is a Node process of its own, and the owner's replay of an unknown id reads every schema of the database.
jest.setTimeout(90_000);
const schema = uniqueName('dead_letters_cli');
const busSchema = uniqueName('bus');
const group = 'ingressos-worker';
const topic = `${schema}.ticket-requested`;
const logger = createLogger('dead-letters-cli', 'silent');
const metrics = createMetrics('dead-letters-cli');
const outbox = createOutbox({ [topic]: z.object({ seat: z.string() }) });
// This schema's events are the tickets service's.
const keys = testKeyRing.keys('tickets');
const closers: { close(): Promise<unknown> }[] = [];
const handled: string[] = [];
let broken = true;
let db: Knex;

/** Runs the command as an operator would, with the machine's test database (or `url`) as DATABASE_URL. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliAs(TEST_DATABASE_URL, ...args);
}

function cliAs(url: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, DATABASE_URL: url } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  db = createDb(TEST_DATABASE_URL, schema, 4);
  await migrate(db, schema, busMigrations);
  const transport = createPostgresTransport({ url: TEST_DATABASE_URL, schema: busSchema, logger, pollMs: 50 });
  closers.push(transport);
  closers.unshift(startRelay({ db, schema, transport, keys, logger, metrics, pollMs: 50 }));
  closers.unshift(
    await startConsumers({
      group,
      schemas: { [topic]: z.object({ seat: z.string() }) },
      transport,
      keys,
      mayPublish: (producer) => producer === 'tickets',
      db,
      outbox,
      logger,
      metrics,
      maxAttempts: 2,
      retryDelayMs: () => 10,
      handlers: {
        [topic]: async (_payload, { event }) => {
          if (broken) throw new Error('assento inexistente no mapa do evento');
          handled.push(event.id);
        },
      },
    }),
  );
});

afterAll(async () => {
  for (const closer of closers) await closer.close();
  await db.destroy();
  await dropSchemas([schema, busSchema]);
});

test('list shows a dead letter; replay sends it again once; unknown or replayed ids are refused', async () => {
  const event = await db.transaction((trx) => outbox.add(trx, topic, 'pedido-1', { seat: 'Z99' }));
  const letter = await waitFor(() => db('dead_letters').where({ event_id: event.id }).first());

  const listed = await cli('list', '--schema', schema);
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  expect(listed.stdout).toContain(`1 dead letter pendente em 1 schema (${schema})`);
  const line = listed.stdout.split('\n').find((text) => text.startsWith(letter.id));
  expect(line).toMatch(
    new RegExp(`^${letter.id}\\s+${schema}/${group}\\s+${topic}\\s+${event.id}\\s+2\\s+\\d+ s\\s+assento inexistente`),
  );

  broken = false;
  const replayed = await cli('replay', letter.id);
  expect(replayed).toMatchObject({ code: 0, stderr: '' });
  expect(replayed.stdout).toContain(`Dead letter ${letter.id} reenviada: o evento ${event.id} (${topic})`);
  await waitFor(() => handled.length === 1);
  expect(handled).toEqual([event.id]);
  expect((await db('dead_letters').where({ id: letter.id }).first()).replayed_at).toBeInstanceOf(Date);

  const again = await cli('replay', letter.id, '--schema', schema);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`Dead letter ${letter.id} já foi reenviada em`);
  const unknown = randomUUID();
  await expect(cli('replay', unknown)).resolves.toMatchObject({
    code: 1,
    stderr: `Dead letter ${unknown} não encontrada.\n`,
  });
  await expect(cli('replay', 'pedido-1')).resolves.toMatchObject({ code: 2 });
  await expect(cli('list', '--schema', schema)).resolves.toMatchObject({
    code: 0,
    stdout: `Nenhuma dead letter pendente em 1 schema (${schema}).\n`,
  });
  await expect(cli('list', '--schema', `${schema}_none`)).resolves.toMatchObject({
    code: 1,
    stderr: `O schema "${schema}_none" não tem a tabela dead_letters (ou este usuário não pode lê-la).\n`,
  });
  expect(handled).toEqual([event.id]);
});

test("a service's own role lists the dead letters of its schema and no other", async () => {
  const role = uniqueName('dead_letters_role');
  const other = uniqueName('dead_letters_other');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const [quotedRole, quotedSchema, quotedOther] = [role, schema, other].map(pg.escapeIdentifier);
  try {
    await admin.query(`create role ${quotedRole} login`);
    await admin.query(`grant usage on schema ${quotedSchema} to ${quotedRole}`);
    await admin.query(`grant select, update on ${quotedSchema}.dead_letters to ${quotedRole}`);
    await admin.query(`create schema ${quotedOther}`);
    await admin.query(`create table ${quotedOther}.dead_letters (like ${quotedSchema}.dead_letters)`);
    const url = new URL(TEST_DATABASE_URL);
    url.username = role;
    url.password = '';

    await expect(cliAs(url.toString(), 'list')).resolves.toMatchObject({
      code: 0,
      stdout: `Nenhuma dead letter pendente em 1 schema (${schema}).\n`,
    });
    await expect(cliAs(url.toString(), 'list', '--schema', other)).resolves.toMatchObject({
      code: 1,
      stderr: `O schema "${other}" não tem a tabela dead_letters (ou este usuário não pode lê-la).\n`,
    });
  } finally {
    await admin.query(`drop schema if exists ${quotedOther} cascade`);
    await admin.query(`drop owned by ${quotedRole} cascade`).catch(() => {});
    await admin.query(`drop role if exists ${quotedRole}`);
    await admin.end();
  }
});
