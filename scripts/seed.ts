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
import { certificatesMigrations } from '@ticketing/certificates';
import { paymentsMigrations } from '@ticketing/payments';
import { seedEventInputs, seedEvents } from './seed/events.ts';

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
 * Turns certificates on for the seeded events that promise them (found by title in the catalog), released
 * automatically a day after each event ends. Settings already there are left alone.
 */
export async function seedCertificates(catalog: Knex, certificates: Knex): Promise<number> {
  let enabled = 0;
  for (const seed of seedEvents.filter((event) => event.certificate)) {
    const event = (await catalog('events').where({ title: seed.title }).first('id')) as { id: string } | undefined;
    if (!event) continue;
    const [row] = await certificates('settings')
      .insert({
        event_id: event.id,
        enabled: true,
        signer_name: seed.certificate!.signerName,
        signer_role: seed.certificate!.signerRole,
        auto_release_hours: 24,
      })
      .onConflict('event_id')
      .ignore()
      .returning('event_id');
    if (row) enabled += 1;
  }
  return enabled;
}

/**
 * Notas fiscais for every paid order, as a training company in São Paulo issues them (service 08.02, ISS 2 %), so the
 * local stack shows the whole flow against the sandbox. Settings already there (an administrator's) are left alone.
 */
export async function seedFiscalSettings(payments: Knex): Promise<boolean> {
  const [row] = await payments('fiscal_settings')
    .insert({
      id: 1,
      enabled: true,
      service_description: 'Cursos, workshops e congressos de capacitação profissional para a indústria farmacêutica',
      municipal_service_code: '08.02',
      municipal_service_name: 'Instrução, treinamento, orientação pedagógica e educacional',
      iss_rate: 2,
      deductions: 0,
      retain_iss: false,
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  return row !== undefined;
}

/**
 * Seeds the catalog of the database at `databaseUrl` (schema `catalog` unless told otherwise), running the
 * catalog's migrations first so it works before the service ever started. Returns how many events were created.
 */
export async function seed(
  databaseUrl: string,
  {
    schema = 'catalog',
    certificatesSchema = 'certificates',
    paymentsSchema = 'payments',
    logger = createLogger('seed', 'silent'),
  }: { schema?: string; certificatesSchema?: string; paymentsSchema?: string; logger?: Logger } = {},
): Promise<number> {
  const db = createDb(databaseUrl, schema, 2);
  try {
    await migrate(db, schema, [...busMigrations, ...catalogMigrations]);
    const created = await seedCatalog(db, createOutbox(eventSchemas), { logger });
    logger.info({ schema, created }, created ? 'catalog seeded' : 'catalog already has events; nothing seeded');
    const certificates = createDb(databaseUrl, certificatesSchema, 2);
    try {
      await migrate(certificates, certificatesSchema, [...busMigrations, ...certificatesMigrations]);
      const enabled = await seedCertificates(db, certificates);
      logger.info({ enabled }, 'certificates enabled for the seeded events that promise them');
    } finally {
      await certificates.destroy();
    }
    const payments = createDb(databaseUrl, paymentsSchema, 2);
    try {
      await migrate(payments, paymentsSchema, [...busMigrations, ...paymentsMigrations]);
      if (await seedFiscalSettings(payments)) logger.info('notas fiscais turned on for paid orders');
    } finally {
      await payments.destroy();
    }
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
