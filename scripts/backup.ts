/**
 * A backup of the platform's database: one pg_dump archive (custom format) of every schema.
 *
 *   npm run backup [-- --compose] [-- --out <file>]
 *
 * Which database: scripts/lib/backup-target.ts (compose's, DATABASE_URL's, or `npm start`'s). Restore it with
 * `npm run restore -- <file>` (docs/operations/backup-and-restore.md).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { backupDatabase, describeSummary, formatBytes } from './lib/backup.ts';
import { openTarget } from './lib/backup-target.ts';
import { Refusal } from './lib/pg-client.ts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

try {
  const { values } = parseArgs({ options: { compose: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const target = await openTarget({ compose: values.compose, root, create: false });
  try {
    const file =
      values.out ?? join(root, 'backups', `${target.database}-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`);
    mkdirSync(dirname(file), { recursive: true });
    const summary = await backupDatabase(target.client, target.database, file);
    console.log(`Backup de ${target.database} (${target.client.where}):
  arquivo: ${relative(process.cwd(), file) || file} (${formatBytes(summary.bytes)})
${describeSummary(summary)}
Para restaurar: npm run restore -- ${relative(process.cwd(), file) || file}${values.compose ? ' --compose' : ''}`);
  } finally {
    await target.close();
  }
} catch (error) {
  console.error(error instanceof Refusal ? error.message : error);
  process.exit(1);
}
