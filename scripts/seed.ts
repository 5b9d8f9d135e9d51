import {
  baseConfigSchema,
  busMigrations,
  createDb,
  createLogger,
  createOutbox,
  loadConfig,
  migrate,
  type Knex,
  type Logger,
  type Outbox,
} from '@ticketing/platform';
import { eventSchemas } from '@ticketing/proto';
import { catalogMigrations, createEvent, holdSpots } from '@ticketing/catalog';
import { seedEventInputs } from './seed/events.ts';

export interface SeedOptions {
  /** The moment the seed dates count from. */
  now?: Date;
  logger?: Logger;
}

/**
 * Fills an empty catalog with the demonstration events, through the catalog's own use cases (so each one is
 * announced on the bus). A catalog that already has events is left alone, so restarts neither duplicate nor
 * overwrite anything; concurrent starts wait for each other. Returns how many events were created.
 */
export async function seedCatalog(db: Knex, outbox: Outbox, options: SeedOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const logger = options.logger ?? createLogger('seed', 'silent');
  return db.transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(hashtext('seed:' || current_schema()))`);
    if (await trx('events').first('id')) return 0;
    const deps = { db: trx, outbox, logger };
    const entries = seedEventInputs(now);
    for (const { seed, input } of entries) {
      const event = await createEvent(deps, input);
      if (seed.attendees) {
        await holdSpots(deps, { eventId: event.id, holdId: `seed:${seed.slug}`, quantity: seed.attendees });
      }
    }
    return entries.length;
  });
}

/**
 * Seeds the catalog of the database at `databaseUrl` (schema `catalog` unless told otherwise), running the
 * catalog's migrations first so it works before the service ever started. Returns how many events were created.
 */
export async function seed(
  databaseUrl: string,
  { schema = 'catalog', logger = createLogger('seed', 'silent') }: { schema?: string; logger?: Logger } = {},
): Promise<number> {
  const db = createDb(databaseUrl, schema, 2);
  try {
    await migrate(db, schema, [...busMigrations, ...catalogMigrations]);
    const created = await seedCatalog(db, createOutbox(eventSchemas), { logger });
    logger.info({ schema, created }, created ? 'catalog seeded' : 'catalog already has events; nothing seeded');
    return created;
  } finally {
    await db.destroy();
  }
}

if (import.meta.main) {
  const config = loadConfig(
    baseConfigSchema.pick({ DATABASE_URL: true, DB_SCHEMA: true, LOG_LEVEL: true }),
    process.env,
  );
  await seed(config.DATABASE_URL, {
    schema: config.DB_SCHEMA ?? 'catalog',
    logger: createLogger('seed', config.LOG_LEVEL),
  });
}
