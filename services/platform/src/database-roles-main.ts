/**
 * Creates (or updates) each service's database role and schema, for deployments: compose's `database-roles`
 * step and the Kubernetes Job run it before the services start.
 *
 *   DATABASE_URL=postgres://owner:…@postgres:5432/ticketing \
 *   IDENTITY_DATABASE_PASSWORD=… CATALOG_DATABASE_PASSWORD=… … node services/platform/src/database-roles-main.ts
 *
 * One `<ROLE>_DATABASE_PASSWORD` per role: each service schema (identity, catalog, orders, payments, courtesy,
 * tickets, mail), whose service connects as the role named after it, and tickets_verifier, the door API's role.
 */
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { DATABASE_ROLES, provisionDatabaseRoles, type DatabaseRole } from './database-roles.ts';

const passwordVariable = (role: DatabaseRole) => `${role.toUpperCase()}_DATABASE_PASSWORD`;

const schema = z.object({
  DATABASE_URL: z.url(),
  BUS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('bus'),
  ...Object.fromEntries(DATABASE_ROLES.map((name) => [passwordVariable(name), z.string().min(12)])),
});

try {
  const config = loadConfig(schema, process.env) as Record<string, string>;
  const passwords = Object.fromEntries(DATABASE_ROLES.map((name) => [name, config[passwordVariable(name)]!])) as Record<
    DatabaseRole,
    string
  >;
  await provisionDatabaseRoles({ adminUrl: config.DATABASE_URL!, passwords, busSchema: config.BUS_SCHEMA });
  console.log(`database roles ready: ${DATABASE_ROLES.join(', ')}`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
