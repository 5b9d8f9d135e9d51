/**
 * Restores a backup made by `npm run backup` as the platform's database.
 *
 *   npm run restore -- <file> [--compose] [--force]
 *
 * The archive is restored into a new database, which takes the database's name only once complete: a failed
 * restore changes nothing. A database with data is replaced only with --force (its sessions are ended; its data is
 * kept as <database>_before_restore_<time>, to drop once the restore is checked). Stop the services first.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeSummary, restoreDatabase } from './lib/backup.ts';
import { openTarget } from './lib/backup-target.ts';
import { Refusal } from './lib/pg-client.ts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { compose: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
  });
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new Refusal('Uso: npm run restore -- <arquivo> [--compose] [--force]');
  if (!existsSync(file)) throw new Refusal(`Arquivo não encontrado: ${file}`);
  const target = await openTarget({ compose: values.compose, root, create: true });
  try {
    const result = await restoreDatabase(target.client, target.database, file, { force: values.force });
    console.log(`Restaurado ${file} em ${target.database} (${target.client.where}):
${describeSummary(result)}${
      result.previous
        ? `\nOs dados anteriores estão no banco ${result.previous}; apague-o depois de conferir (drop database ${result.previous}).`
        : ''
    }`);
  } finally {
    await target.close();
  }
} catch (error) {
  console.error(error instanceof Refusal ? error.message : error);
  process.exit(1);
}
