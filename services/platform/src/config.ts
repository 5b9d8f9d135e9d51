import { localUrl } from '@ticketing/proto';
import { z } from 'zod';
import { keyText, publicKeyList } from './service-keys.ts';

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
  /**
   * Whether the process applies its schema's migrations as it boots. Where a release migrates before its pods (the
   * `migrate` entry in an init container), the pods only check the schema is at their version and never migrate
   * within a startup probe.
   */
  MIGRATE_ON_START: flag.default(true),
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
  /** Kafka's SASL login, each service its own user (its ACLs say which topics it writes and reads). */
  KAFKA_SASL_MECHANISM: z.enum(['scram-sha-512', 'scram-sha-256', 'plain']).optional(),
  KAFKA_USERNAME: z.string().min(1).optional(),
  KAFKA_PASSWORD: z.string().min(1).optional(),
  /** TLS to the brokers (the cluster's authenticated listener). */
  KAFKA_TLS: flag.default(false),
  IDENTITY_URL: z.url().default(localUrl('identity')),
  /** Identity's public keys; `<IDENTITY_URL>/.well-known/jwks.json` unless set. */
  JWKS_URL: z.url().optional(),
  /** This service's own Ed25519 private key: it signs its calls to other services and the events it publishes. */
  SERVICE_KEY: keyText.optional(),
  /** Every service's public key (`name:key,…`): who signed a call or an event. */
  SERVICE_PUBLIC_KEYS: publicKeyList.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  DEV_TOOLS: flag.default(false),
  /** A collector's OTLP/HTTP address (Tempo, Jaeger, an OpenTelemetry Collector): spans are exported only when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** How long spans wait to be sent in one batch, in ms. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(0).default(5000),
  /**
   * After SIGTERM, how long the process keeps serving, new requests included, with `/readyz` at 503 and every answer
   * closing its connection: the time a load balancer takes to stop sending it new connections and its clients take to
   * leave their kept ones (at least the server's 5 s keep-alive). 0 where no load balancer reads `/readyz`.
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** Then, how long requests still in flight get to finish before their connections are cut. */
  DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
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

/**
 * Published values: this repository's examples and placeholders (compose, k8s templates, README) and any address at
 * an example domain (`admin@example.com.br`, `smtp.example.com.br`).
 */
const EXAMPLE_VALUE = /^(admin123|dev-webhook-token)$|CHANGE_ME|troque|(^|[@./])example\.[a-z]/i;

/**
 * The development stack's passwords: the database owner's (`ticketing`), PostgreSQL's, and each role's, Kafka
 * user's and Redis user's `<name>-development`.
 */
const DEVELOPMENT_PASSWORD = /^(ticketing|postgres|[a-z_-]+-development)$/;

/** The database, whose URLs must carry a password. */
const DATABASE_URLS = ['DATABASE_URL', 'DATABASE_DIRECT_URL'] as const;
/** Redis's URL and Kafka's password, checked when they carry one. */
const REDIS_URL = 'REDIS_URL';
const KAFKA_PASSWORD = 'KAFKA_PASSWORD';

/** The least estimated randomness of a production secret: beyond any guessing over the network. */
const MIN_SECRET_BITS = 64;
/** A secret drawn from fewer characters than this is a short alphabet, whatever its length. */
const MIN_DISTINCT_CHARACTERS = 8;
/** Character classes and how many characters each adds to the alphabet a guesser must try. */
const CHARACTER_CLASSES: [RegExp, number][] = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[^a-zA-Z0-9]/, 33],
];
/** Repeated patterns up to this long are seen (`abab`, `abc1abc1`). */
const MAX_PATTERN_LENGTH = 8;

/**
 * A deliberately simple estimate of a secret's randomness, in bits: each character that cannot be told from the ones
 * before it is worth log2 of the alphabet its character classes span. Told: one that keeps a run or a steady step
 * (`aaaa`, `abcd`, `9753`) or continues a repeated pattern. Words are not looked up: this stops placeholders, typed
 * patterns and short alphabets, not a determined poor choice.
 */
export function estimatedSecretBits(secret: string): number {
  const codes = [...secret].map((character) => character.codePointAt(0)!);
  let unforeseen = 0;
  for (let i = 0; i < codes.length; i++) {
    const steady = i >= 2 && codes[i]! - codes[i - 1]! === codes[i - 1]! - codes[i - 2]!;
    let repeated = false;
    for (let length = 1; length <= Math.min(MAX_PATTERN_LENGTH, i - 1) && !repeated; length++) {
      repeated = codes[i] === codes[i - length] && codes[i - 1] === codes[i - 1 - length];
    }
    if (!steady && !repeated) unforeseen++;
  }
  const alphabet = CHARACTER_CLASSES.reduce((size, [members, count]) => size + (members.test(secret) ? count : 0), 0);
  return unforeseen * Math.log2(Math.max(alphabet, 1));
}

const isWeakSecret = (secret: string) =>
  new Set(secret).size < MIN_DISTINCT_CHARACTERS || estimatedSecretBits(secret) < MIN_SECRET_BITS;

/** A URL's password, its %-escapes decoded (kept as written where they are not valid). */
function passwordOf(url: string): string {
  const password = new URL(url).password;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

/** Why a password of the infrastructure cannot run in production, if it cannot. */
function passwordProblem(password: string): string | undefined {
  if (DEVELOPMENT_PASSWORD.test(password) || EXAMPLE_VALUE.test(password)) {
    return 'a development password cannot be used in production';
  }
  if (isWeakSecret(password)) return 'the password is too weak for production: use a long random one';
  return undefined;
}

/** The development default a setting falls back to, read from its schema. */
function defaultOf(schema: z.ZodObject, name: string): unknown {
  const field = schema.shape[name];
  return field instanceof z.ZodDefault ? field.def.defaultValue : undefined;
}

/** A service's own production rule for one setting: why its value cannot run in production, if it cannot. */
export type ProductionCheck = (value: unknown) => string | undefined;

/**
 * With NODE_ENV=production, refuses development settings: DEV_TOOLS on; a database URL without a password; a
 * database, Redis or Kafka password from the development stack, or weak; any setting holding an example or
 * placeholder value (an address at an example domain, a CHANGE_ME); a secret left at its development default, empty
 * or weak (too few distinct characters or under 64 estimated bits); and what a service's own `checks` refuse. Names
 * each setting, never its value.
 */
export function assertProductionSafe(
  schema: z.ZodObject,
  config: Record<string, unknown> & { NODE_ENV: string; DEV_TOOLS: boolean },
  secrets: readonly string[],
  checks: Readonly<Record<string, ProductionCheck>> = {},
): void {
  if (config.NODE_ENV !== 'production') return;
  const problems = new Map<string, string>();
  const refuse = (name: string, problem: string | undefined) => {
    if (problem && !problems.has(name)) problems.set(name, problem);
  };
  if (config.DEV_TOOLS) refuse('DEV_TOOLS', 'development tools cannot be on in production');
  for (const name of DATABASE_URLS) {
    if (typeof config[name] !== 'string') continue;
    const password = passwordOf(config[name]);
    refuse(name, password === '' ? 'must carry the database password in production' : passwordProblem(password));
  }
  const redisPassword = typeof config[REDIS_URL] === 'string' ? passwordOf(config[REDIS_URL]) : '';
  if (redisPassword !== '') refuse(REDIS_URL, passwordProblem(redisPassword));
  if (typeof config[KAFKA_PASSWORD] === 'string') refuse(KAFKA_PASSWORD, passwordProblem(config[KAFKA_PASSWORD]));
  for (const name of secrets) {
    const value = config[name];
    if (typeof value !== 'string' || value === '') refuse(name, 'must be set in production');
    else if (value === defaultOf(schema, name) || EXAMPLE_VALUE.test(value)) {
      refuse(name, 'a development default or an example value cannot be used in production');
    } else if (isWeakSecret(value)) {
      refuse(
        name,
        'too weak for production (few distinct characters, runs or repeated patterns): use a long random value',
      );
    }
  }
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === 'string' && EXAMPLE_VALUE.test(value)) {
      refuse(name, 'an example or placeholder value cannot be used in production');
    }
  }
  for (const [name, check] of Object.entries(checks)) refuse(name, check(config[name]));
  if (problems.size === 0) return;
  const lines = [...problems].map(([name, problem]) => `  ${name}: ${problem}`);
  throw new ConfigError(`Unsafe production configuration:\n${lines.join('\n')}`);
}
