import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Settings every service reads; a service extends this with its own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** The app's pool; may be PgBouncer in transaction mode. */
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/postgres'),
  /**
   * PostgreSQL itself, for what needs a session of its own: migrations (a session advisory lock) and the
   * PostgreSQL bus (LISTEN/NOTIFY). DATABASE_URL unless set.
   */
  DATABASE_DIRECT_URL: z.url().optional(),
  DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  DB_POOL_MAX: z.coerce.number().int().min(2).default(10),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z.string().default(''),
  BUS: z.enum(['kafka', 'postgres']).default('postgres'),
  BUS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('bus'),
  /** The PostgreSQL bus's own sessions, on top of DB_POOL_MAX. */
  BUS_POOL_MAX: z.coerce.number().int().min(2).default(6),
  KAFKA_BROKERS: z.string().optional(),
  IDENTITY_URL: z.url().default('http://127.0.0.1:3001'),
  /** Identity's public keys; `<IDENTITY_URL>/.well-known/jwks.json` unless set. */
  JWKS_URL: z.url().optional(),
  /** Signs and checks the tokens services present to each other's `/internal` routes. */
  SERVICE_TOKEN_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .default('development-only-service-token-secret-0000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  DEV_TOOLS: flag.default(false),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** Where session-bound work connects: PostgreSQL itself, never a transaction-mode pooler. */
export const directDatabaseUrl = (config: BaseConfig): string => config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;

export class ConfigError extends Error {}

/** Parses the environment once at boot; a bad value stops the service with a message naming the variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** Values from this repository's examples (compose, k8s templates, README) that are no secret once published. */
const EXAMPLE_SECRETS = /^(admin123|dev-webhook-token)$|CHANGE_ME|troque|example\.com/i;

/** The development default a setting falls back to, read from its schema. */
function defaultOf(schema: z.ZodObject, name: string): unknown {
  const field = schema.shape[name];
  return field instanceof z.ZodDefault ? field.def.defaultValue : undefined;
}

/**
 * With NODE_ENV=production, refuses development settings: a secret left at its development default, set to an
 * example or placeholder, or empty, and DEV_TOOLS on. Names each setting, never its value.
 */
export function assertProductionSafe(
  schema: z.ZodObject,
  config: Record<string, unknown> & { NODE_ENV: string; DEV_TOOLS: boolean },
  secrets: readonly string[],
): void {
  if (config.NODE_ENV !== 'production') return;
  const problems: string[] = [];
  if (config.DEV_TOOLS) problems.push('  DEV_TOOLS: development tools cannot be on in production');
  for (const name of secrets) {
    const value = config[name];
    if (typeof value !== 'string' || value === '') problems.push(`  ${name}: must be set in production`);
    else if (value === defaultOf(schema, name) || EXAMPLE_SECRETS.test(value))
      problems.push(`  ${name}: a development default or an example value cannot be used in production`);
  }
  if (problems.length > 0) throw new ConfigError(`Unsafe production configuration:\n${problems.join('\n')}`);
}
