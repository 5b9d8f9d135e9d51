import type { ProductionCheck } from '@ticketing/platform';
import { z } from 'zod';

const DURATION = /^(\d{1,7})([smhd])$/;
const SECONDS_PER_UNIT = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** A lifetime such as `90s`, `30m`, `12h` or `7d`, as seconds. */
const duration = (fallback: string) =>
  z
    .string()
    .regex(DURATION, 'use a number followed by s, m, h or d (e.g. 12h, 7d)')
    .default(fallback)
    .transform((value) => {
      const [, amount, unit] = DURATION.exec(value)!;
      return Number(amount) * SECONDS_PER_UNIT[unit as keyof typeof SECONDS_PER_UNIT];
    })
    .refine((seconds) => seconds > 0, 'must be longer than zero');

/** Defaults that only make sense on a developer's machine; the service warns when it runs with them. */
export const DEVELOPMENT_ADMIN_EMAIL = 'admin@educacaofarma.com.br';
export const DEVELOPMENT_ADMIN_PASSWORD = 'admin123';
export const DEVELOPMENT_VERIFICATION_SECRET = 'desenvolvimento-somente-troque-este-segredo';

const count = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** The identity service's own settings, on top of the platform's. */
export const identityConfig = {
  /** The administrator account created at start when no account has this e-mail yet. */
  ADMIN_EMAIL: z
    .email()
    .default(DEVELOPMENT_ADMIN_EMAIL)
    .transform((email) => email.toLowerCase()),
  /** Development only: every real deployment sets its own (k8s reads it from a secret). */
  ADMIN_PASSWORD: z.string().min(6).max(128).default(DEVELOPMENT_ADMIN_PASSWORD),
  /**
   * Comma-separated e-mails of the administrators who manage courtesy links. Unset or empty means the
   * administrator account above.
   */
  COURTESY_MANAGER_EMAILS: z.string().optional(),
  /** Comma-separated e-mails of the door staff, who scan tickets (administrators may also grant the role). */
  DOOR_STAFF_EMAILS: z.string().optional(),
  TOKEN_TTL: duration('12h'),
  /** Lifetime of a session opened with "lembrar-me". */
  TOKEN_TTL_REMEMBER: duration('7d'),
  /**
   * Session renewals one account may make per hour, across all its devices (a door's phones may share one
   * account); a page open all day renews a few times an hour at most.
   */
  TOKEN_RENEWALS_PER_HOUR: count(120),
  /** The longest a session (a login and its renewals) lasts, whatever its renewals. */
  SESSION_MAX_AGE: duration('12h'),
  /** The same for a session opened with "lembrar-me". */
  SESSION_MAX_AGE_REMEMBER: duration('7d'),
  /** The same for a session of door staff, "lembrar-me" or not: a door shift. */
  SESSION_MAX_AGE_DOOR_STAFF: duration('12h'),
  /** Open sessions one account keeps (a door's phones may share one); a new login ends the least recently renewed. */
  SESSIONS_PER_ACCOUNT: count(30),
  /** HMAC key for the stored hashes of e-mail verification codes. The default is for development only. */
  VERIFICATION_SECRET: z.string().min(16).default(DEVELOPMENT_VERIFICATION_SECRET),
  /** Wrong passwords one address may try on one account before each further try waits (growing delays). */
  LOGIN_FREE_FAILURES_PER_ADDRESS_AND_ACCOUNT: count(5),
  /** Wrong passwords an account takes from all addresses before the addresses that failed on it wait. */
  LOGIN_FREE_FAILURES_PER_ACCOUNT: count(10),
  /**
   * Wrong passwords one address may make, on any accounts, per window. Sized for a carrier's CGNAT or a venue's
   * Wi-Fi, where thousands of phones share one address: only a spraying attacker gets near it.
   */
  LOGIN_MAX_FAILURES_PER_ADDRESS: count(1000),
  LOGIN_FAILURE_WINDOW_SECONDS: count(15 * 60),
  /** The longest a growing delay gets. */
  LOGIN_MAX_DELAY_SECONDS: count(15 * 60),
  /** Wrong e-mail codes an account may send per day, across every code it was sent. */
  VERIFICATION_MAX_WRONG_CODES_PER_DAY: count(15),
  /** Forgot-password answers take at least this long, whether or not the account exists. */
  FORGOT_PASSWORD_MIN_MS: z.coerce.number().int().min(0).max(10_000).default(400),
  /** How long an account that never verified its e-mail lives: then it goes, and its e-mail and CPF are free. */
  UNVERIFIED_ACCOUNT_TTL: duration('7d'),
  /** How often expired unverified accounts are looked for; 0 turns the sweep off. */
  UNVERIFIED_ACCOUNT_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60 * 60 * 1000),
};

/** The development administrator is published (README, `npm start`): production names its own. */
export const identityProductionChecks = {
  ADMIN_EMAIL: (email) =>
    email === DEVELOPMENT_ADMIN_EMAIL ? 'the development administrator cannot be used in production' : undefined,
} satisfies Record<string, ProductionCheck>;

export type IdentityConfig = z.infer<z.ZodObject<typeof identityConfig>> & { DEV_TOOLS: boolean };

/** What the use cases read from the configuration, resolved once at start. */
export interface IdentitySettings {
  adminEmail: string;
  adminPassword: string;
  courtesyManagers: ReadonlySet<string>;
  doorStaff: ReadonlySet<string>;
  tokenTtlSeconds: number;
  rememberTtlSeconds: number;
  renewalsPerHour: number;
  sessionMaxAge: { normal: number; remembered: number; doorStaff: number };
  sessionsPerAccount: number;
  verificationSecret: string;
  login: LoginLimits;
  maxWrongCodesPerDay: number;
  forgotPasswordMinMs: number;
  unverifiedAccountTtlSeconds: number;
}

export interface LoginLimits {
  freePerPair: number;
  freePerAccount: number;
  maxPerAddress: number;
  windowSeconds: number;
  maxDelaySeconds: number;
}

const emailList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email.length > 0);

export function identitySettings(config: IdentityConfig): IdentitySettings {
  const managers = emailList(config.COURTESY_MANAGER_EMAILS);
  return {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    courtesyManagers: new Set(managers.length > 0 ? managers : [config.ADMIN_EMAIL]),
    doorStaff: new Set(emailList(config.DOOR_STAFF_EMAILS)),
    tokenTtlSeconds: config.TOKEN_TTL,
    rememberTtlSeconds: config.TOKEN_TTL_REMEMBER,
    renewalsPerHour: config.TOKEN_RENEWALS_PER_HOUR,
    sessionMaxAge: {
      normal: config.SESSION_MAX_AGE,
      remembered: config.SESSION_MAX_AGE_REMEMBER,
      doorStaff: config.SESSION_MAX_AGE_DOOR_STAFF,
    },
    sessionsPerAccount: config.SESSIONS_PER_ACCOUNT,
    verificationSecret: config.VERIFICATION_SECRET,
    login: {
      freePerPair: config.LOGIN_FREE_FAILURES_PER_ADDRESS_AND_ACCOUNT,
      freePerAccount: config.LOGIN_FREE_FAILURES_PER_ACCOUNT,
      maxPerAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
      maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS,
    },
    maxWrongCodesPerDay: config.VERIFICATION_MAX_WRONG_CODES_PER_DAY,
    forgotPasswordMinMs: config.FORGOT_PASSWORD_MIN_MS,
    unverifiedAccountTtlSeconds: config.UNVERIFIED_ACCOUNT_TTL,
  };
}
