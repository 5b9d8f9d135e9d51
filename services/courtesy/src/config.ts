import type { BaseConfig } from '@ticketing/platform';
import { localUrl } from '@ticketing/proto';
import { z } from 'zod';

/** The courtesy service's own settings, on top of the platform's (PUBLIC_URL, the site the links point to). */
export const courtesyConfig = {
  /** The catalog: the events links are made for, and the spots a free link holds. */
  CATALOG_URL: z.url().default(localUrl('catalog')),
  /** A call to another service gives up after this long. */
  COLLABORATOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Courtesy codes start with these letters, then 5 digits and 3 letters (CDPI12345ABC). */
  COURTESY_CODE_PREFIX: z
    .string()
    .regex(/^[A-Z]{1,10}$/)
    .default('CDPI'),
  /** How many invitations of a mass send are made at the same time. */
  MASS_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** How often the mass-send worker looks for work left behind (new work wakes it at once). */
  MASS_SEND_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  /** Coupon quotes an account may ask within the window (typing a code at checkout is a handful). */
  COUPON_QUOTE_LIMIT_POINTS: z.coerce.number().int().min(1).default(30),
  COUPON_QUOTE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
};

export type CourtesyConfig = BaseConfig & z.infer<z.ZodObject<typeof courtesyConfig>>;
