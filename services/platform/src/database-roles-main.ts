/**
 * Creates (or updates) each service's database role and schema, for deployments: compose's `database-roles`
 * step and the Kubernetes Job run it before the services start.
 *
 *   DATABASE_URL=postgres://owner:…@postgres:5432/ticketing \
 *   IDENTITY_DATABASE_PASSWORD=… CATALOG_DATABASE_PASSWORD=… … node services/platform/src/database-roles-main.ts
 *
 * One `<SCHEMA>_DATABASE_PASSWORD` per service schema (identity, catalog, orders, payments, courtesy, tickets,
 * mail); each service then connects as the role named after its schema with that password.
 */
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { SERVICE_SCHEMAS, provisionDatabaseRoles, type ServiceSchema } from './database-roles.ts';

const passwordVariable = (schema: ServiceSchema) => `${schema.toUpperCase()}_DATABASE_PASSWORD`;

const schema = z.object({
  DATABASE_URL: z.url(),
  BUS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('bus'),
  ...Object.fromEntries(SERVICE_SCHEMAS.map((name) => [passwordVariable(name), z.string().min(12)])),
});

try {
  const config = loadConfig(schema, process.env) as Record<string, string>;
  const passwords = Object.fromEntries(
    SERVICE_SCHEMAS.map((name) => [name, config[passwordVariable(name)]!]),
  ) as Record<ServiceSchema, string>;
  await provisionDatabaseRoles({ adminUrl: config.DATABASE_URL!, passwords, busSchema: config.BUS_SCHEMA });
  console.log(`database roles ready: ${SERVICE_SCHEMAS.join(', ')}`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
