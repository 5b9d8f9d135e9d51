import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Settings every service reads; a service extends this with its own. */
export const baseConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/postgres'),
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
  KAFKA_BROKERS: z.string().optional(),
  JWKS_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  DEV_TOOLS: flag.default(false),
});

export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment once at boot; a bad value stops the service with a message naming the variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}
