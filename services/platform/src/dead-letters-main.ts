/**
 * Dead letters: events a consumer gave up on, kept in its service's `dead_letters` table until replayed.
 *
 *   npm run dead-letters -- list [--schema orders]                                  (a checkout)
 *   node services/platform/src/dead-letters-main.ts replay <id> [--schema orders]   (any service image)
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) picks the schemas: the tool sees those whose
 * dead_letters table its role may read and change, so a service's own role (as the CronJobs of
 * k8s/components/dead-letters run it) reaches its own schema and the database owner every one. A replay puts the
 * event back in the outbox of the service that gave up on it: its relay publishes it again with the same id and key,
 * that service handles it, and every other consumer skips it (its inbox has it).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { replayDeadLetter } from './bus/dead-letters.ts';
import { createDb } from './db.ts';

const USAGE = `Uso:
  npm run dead-letters -- list [--schema <schema>]          lista as dead letters ainda não reenviadas
  npm run dead-letters -- replay <id> [--schema <schema>]   reenvia uma dead letter (o id vem do list)

Na imagem de um serviço: node services/platform/src/dead-letters-main.ts list | replay <id>.
DATABASE_URL aponta o banco (padrão postgres://postgres@127.0.0.1:5432/postgres); o usuário vê os schemas
cujas dead letters pode ler e alterar (o papel de um serviço, o seu; o dono do banco, todos).`;

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
// A schema dropped between finding it and reading it (a service removed meanwhile) is simply not there any more.
const VANISHED = new Set(['42P01', '3F000']);

class Refusal extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

interface Letter {
  schema: string;
  id: string;
  group: string;
  topic: string;
  event_id: string | null;
  attempts: number;
  error: string;
  age_seconds: string;
}

const id = pg.escapeIdentifier;

/** The schemas holding a dead_letters table this role may read and replay, or just `only` when given. */
async function schemasWithDeadLetters(client: pg.Client, only: string | undefined): Promise<string[]> {
  const { rows } = await client.query<{ schema: string }>(
    `select n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relname = 'dead_letters' and c.relkind in ('r', 'p') and ($1::text is null or n.nspname = $1)
        and has_schema_privilege(n.oid, 'USAGE') and has_table_privilege(c.oid, 'SELECT, UPDATE')
      order by 1`,
    [only ?? null],
  );
  if (rows.length > 0) return rows.map((row) => row.schema);
  throw new Refusal(
    only
      ? `O schema "${only}" não tem a tabela dead_letters (ou este usuário não pode lê-la).`
      : 'Nenhum schema deste banco tem uma tabela dead_letters que este usuário possa ler: confira DATABASE_URL.',
  );
}

/** Rows of one schema's dead_letters, or none when the schema vanished in the meantime. */
async function readSchema<T extends pg.QueryResultRow>(client: pg.Client, sql: string, values: unknown[]) {
  try {
    return (await client.query<T>(sql, values)).rows;
  } catch (error) {
    if (VANISHED.has((error as { code?: string }).code ?? '')) return [];
    throw error;
  }
}

function age(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function list(client: pg.Client, only: string | undefined): Promise<void> {
  const schemas = await schemasWithDeadLetters(client, only);
  const letters: Letter[] = [];
  for (const schema of schemas) {
    letters.push(
      ...(await readSchema<Letter>(
        client,
        `select $1::text as schema, id, "group", topic, event_id, attempts, error,
                extract(epoch from now() - created_at) as age_seconds
           from ${id(schema)}.dead_letters where replayed_at is null order by created_at`,
        [schema],
      )),
    );
  }
  const where = `${schemas.length} schema${schemas.length === 1 ? '' : 's'} (${schemas.join(', ')})`;
  if (letters.length === 0) {
    console.log(`Nenhuma dead letter pendente em ${where}.`);
    return;
  }
  const rows = letters.map((letter) => [
    letter.id,
    `${letter.schema}/${letter.group}`,
    letter.topic,
    letter.event_id ?? '(inválido)',
    String(letter.attempts),
    age(Number(letter.age_seconds)),
    letter.error.replace(/\s+/g, ' ').slice(0, 120),
  ]);
  const plural = letters.length === 1 ? '' : 's';
  console.log(`${letters.length} dead letter${plural} pendente${plural} em ${where}:\n`);
  console.log(table(['ID', 'SERVIÇO/GRUPO', 'TÓPICO', 'EVENTO', 'TENTATIVAS', 'IDADE', 'ERRO'], rows));
  console.log(
    '\nPara reenviar uma: o comando replay <ID> (npm run dead-letters -- replay <ID>, ou na imagem do serviço).',
  );
}

async function replay(client: pg.Client, url: string, letterId: string, only: string | undefined): Promise<void> {
  if (!z.uuid().safeParse(letterId).success) {
    throw new Refusal(`"${letterId}" não é um id de dead letter (um UUID, como mostra o list).\n\n${USAGE}`, 2);
  }
  const found: string[] = [];
  for (const schema of await schemasWithDeadLetters(client, only)) {
    const rows = await readSchema(client, `select 1 from ${id(schema)}.dead_letters where id = $1`, [letterId]);
    if (rows.length > 0) found.push(schema);
  }
  const notFound = `Dead letter ${letterId} não encontrada${only ? ` no schema ${only}` : ''}.`;
  if (found.length === 0) throw new Refusal(notFound);
  if (found.length > 1) {
    throw new Refusal(
      `Dead letter ${letterId} existe em mais de um schema (${found.join(', ')}): escolha com --schema.`,
    );
  }
  const schema = found[0]!;
  const db = createDb(url, schema, 1);
  try {
    const result = await replayDeadLetter(db, letterId);
    switch (result.status) {
      case 'replayed':
        console.log(
          `Dead letter ${letterId} reenviada: o evento ${result.eventId} (${result.topic}) voltou ao outbox de ` +
            `${schema} e o relay do serviço o publica de novo; o grupo ${result.group} o trata e os demais o ignoram.`,
        );
        return;
      case 'already_replayed':
        throw new Refusal(`Dead letter ${letterId} já foi reenviada em ${result.replayedAt.toISOString()}.`);
      case 'not_replayable':
        throw new Refusal(
          `Dead letter ${letterId} não pode ser reenviada: a mensagem recebida não era um evento válido ` +
            `(veja a coluna envelope em ${schema}.dead_letters).`,
        );
      case 'not_found':
        throw new Refusal(notFound);
    }
  } finally {
    await db.destroy();
  }
}

/** The URL without its password, for messages. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL inválida)';
  }
}

function args() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { schema: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
}

async function main(): Promise<number> {
  const { positionals, values } = args();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, letterId, ...extra] = positionals;
  const valid = (command === 'list' && !letterId) || (command === 'replay' && letterId);
  if (!valid || extra.length > 0) throw new Refusal(USAGE, 2);

  const url = process.env.DATABASE_URL || DEFAULT_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Refusal(`Não foi possível conectar ao banco ${shown(url)}: ${(error as Error).message}`);
  }
  try {
    if (command === 'list') await list(client, values.schema);
    else await replay(client, url, letterId!, values.schema);
    return 0;
  } finally {
    await client.end().catch(() => {});
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error instanceof Refusal ? error.message : error);
  process.exitCode = error instanceof Refusal ? error.exitCode : 1;
}
