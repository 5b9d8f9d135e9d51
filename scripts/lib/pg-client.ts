/**
 * PostgreSQL's client programs (pg_dump, pg_restore, psql) of the same major version as the server they talk to:
 * pg_dump refuses a server newer than itself, and an archive from a newer pg_dump may not restore into an older
 * server. Either the machine's, found by the server's major (Debian's /usr/lib/postgresql/<N>/bin, PGDG's
 * /usr/pgsql-<N>/bin, Homebrew's postgresql@<N>, PG_BIN_DIR, PATH), or those inside compose's `postgres` container.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { finished } from 'node:stream/promises';
import pg from 'pg';

export type PgTool = 'pg_dump' | 'pg_restore' | 'psql';

export interface PgClient {
  /** Where the programs run and which server they reach, for the messages. */
  where: string;
  /** The server's major version. */
  major: number;
  /**
   * Runs a program against `database` (none: it reads an archive only); stdin and stdout may be files. Resolves to
   * its output when not to a file.
   */
  run(tool: PgTool, database: string | null, args: string[], io?: { stdin?: string; stdout?: string }): Promise<string>;
}

/** A failure the user can act on: printed as is, without a stack. */
export class Refusal extends Error {}

/** `psql -c`: one query (several statements run as one transaction), answers as `a|b` lines. */
export async function sql(client: PgClient, database: string, statement: string): Promise<string[][]> {
  const out = await client.run('psql', database, [
    '-X',
    '-q',
    '-A',
    '-t',
    '-F',
    '|',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    statement,
  ]);
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('|'));
}

function execute(command: string, args: string[], { stdin, stdout }: { stdin?: string; stdout?: string } = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'pipe' });
    let output = '';
    let errors = '';
    const written = stdout ? finished(child.stdout.pipe(createWriteStream(stdout))) : Promise.resolve();
    if (!stdout) child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    // A program that stops reading (it failed) closes the pipe: its exit code says why, not EPIPE.
    child.stdin.on('error', () => {});
    if (stdin) createReadStream(stdin).on('error', reject).pipe(child.stdin);
    else child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        return reject(new Refusal(`${command} ${args[0] ?? ''} falhou (código ${code}):\n${errors.trim()}`));
      written.then(() => resolve(output), reject);
    });
  });
}

/** The major version a client program reports (`pg_dump (PostgreSQL) 15.20 (Debian ...)` -> 15). */
function toolMajor(path: string): number | undefined {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const match = /\(PostgreSQL\) (\d+)/.exec(result.stdout ?? '');
  return match ? Number(match[1]) : undefined;
}

function candidateDirs(major: number): string[] {
  const explicit = process.env.PG_BIN_DIR;
  if (explicit) return [explicit];
  return [
    `/usr/lib/postgresql/${major}/bin`,
    `/usr/pgsql-${major}/bin`,
    `/opt/homebrew/opt/postgresql@${major}/bin`,
    `/usr/local/opt/postgresql@${major}/bin`,
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
  ];
}

/** The bin directory holding pg_dump, pg_restore and psql of `major`, else a Refusal saying what to install. */
export function findClientPrograms(major: number): string {
  const seen = new Map<string, number | undefined>();
  for (const dir of candidateDirs(major)) {
    const programs = ['pg_dump', 'pg_restore', 'psql'].map((tool) => join(dir, tool));
    if (!programs.every((path) => existsSync(path)) || seen.has(realpathSync(dir))) continue;
    const found = toolMajor(programs[0]!);
    seen.set(realpathSync(dir), found);
    if (found === major && programs.every((path) => toolMajor(path) === major)) return dir;
  }
  const others = [...seen].map(([dir, found]) => `pg_dump ${found ?? '?'} em ${dir}`).join(', ') || 'nenhum';
  throw new Refusal(
    `O servidor é PostgreSQL ${major}, e pg_dump/pg_restore/psql precisam ser da mesma versão principal ` +
      `(um pg_dump mais antigo recusa um servidor mais novo). Encontrados: ${others}.\n` +
      `Instale o cliente do PostgreSQL ${major}: Debian/Ubuntu "apt install postgresql-client-${major}" ` +
      `(repositório apt.postgresql.org se a distribuição não o tiver), Fedora/RHEL "dnf install postgresql${major}", ` +
      `macOS "brew install postgresql@${major}"; ou aponte PG_BIN_DIR para a pasta bin dele.`,
  );
}

/** The URL of another database of the same server. */
function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(database)}`;
  return next.href;
}

/** The programs of the server's major on this machine, for the server at `url`. */
export async function localClient(url: string): Promise<PgClient> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let major: number;
  try {
    const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
    major = Math.floor(Number(rows[0]!.server_version_num) / 10000);
  } finally {
    await client.end();
  }
  const dir = findClientPrograms(major);
  const server = new URL(url);
  return {
    where: `PostgreSQL ${major} em ${server.hostname}:${server.port || 5432} (programas de ${dir})`,
    major,
    run: (tool, database, args, io) =>
      execute(
        join(dir, tool),
        [...args, ...(database === null ? [] : [`--dbname=${withDatabase(url, database)}`])],
        io,
      ),
  };
}

/** The programs inside compose's `postgres` service, which match its server by construction. */
export async function composeClient(user: string): Promise<PgClient> {
  const run: PgClient['run'] = (tool, database, args, io) =>
    execute(
      'docker',
      [
        'compose',
        'exec',
        '-T',
        'postgres',
        tool,
        ...args,
        ...(database === null ? [] : ['--username', user, '--dbname', database]),
      ],
      io,
    );
  const [[version]] = await sql({ where: 'compose', major: 0, run }, 'postgres', 'show server_version_num');
  const major = Math.floor(Number(version) / 10000);
  return { where: `PostgreSQL ${major} do docker compose (serviço postgres)`, major, run };
}
