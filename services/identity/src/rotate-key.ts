/**
 * Rotates the key that signs session tokens, with the service's environment (DATABASE_URL, DB_SCHEMA):
 *
 *   node services/identity/src/rotate-key.ts [--activate-in=SECONDS]
 *
 * The new key is published at once and signs from SECONDS later (default 60: every service's cached key
 * set learns it before meeting a token signed with it); tokens signed before keep working until they expire.
 */
import { parseArgs } from 'node:util';
import {
  baseConfigSchema,
  busMigrations,
  ConfigError,
  createDb,
  createLogger,
  directDatabaseUrl,
  loadConfig,
  migrate,
} from '@ticketing/platform';
import { identityConfig } from './config.ts';
import { identityMigrations } from './data/migrations.ts';
import { rotateSigningKey } from './domain/signing-keys.ts';
import { identityService } from './service.ts';

const DEFAULT_ACTIVATION_DELAY_SECONDS = 60;

const { values } = parseArgs({ options: { 'activate-in': { type: 'string' } } });
const activateInSeconds = Number(values['activate-in'] ?? DEFAULT_ACTIVATION_DELAY_SECONDS);
if (!Number.isInteger(activateInSeconds) || activateInSeconds < 0) {
  console.error('--activate-in must be a whole number of seconds (0 or more)');
  process.exit(1);
}

let config;
try {
  config = loadConfig(baseConfigSchema.extend(identityConfig), process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const schema = config.DB_SCHEMA ?? identityService.name;
const logger = createLogger(identityService.name, config.LOG_LEVEL);
// Migrations take a session lock, which a transaction pooler in front of DATABASE_URL would not keep.
const db = createDb(directDatabaseUrl(config), schema, 2);
try {
  await migrate(db, schema, [...busMigrations, ...identityMigrations]);
  await rotateSigningKey({ db, logger }, { activateInSeconds });
} catch (error) {
  logger.error({ err: error }, 'signing key rotation failed');
  process.exitCode = 1;
} finally {
  await db.destroy();
}
