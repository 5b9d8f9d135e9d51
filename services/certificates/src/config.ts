import type { BaseConfig } from '@ticketing/platform';
import { z } from 'zod';

/** The certificates service's own settings, on top of the platform's (PUBLIC_URL, where the QR codes point). */
export const certificatesConfig = {
  /** How often replicas look for events whose automatic release is due (0: never). */
  AUTO_RELEASE_POLL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Look-ups of codes that do not exist, per address and window: whoever walks through codes is stopped. */
  UNKNOWN_CODE_LOOKUPS: z.coerce.number().int().min(1).default(30),
  UNKNOWN_CODE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
};

export type CertificatesConfig = BaseConfig & z.infer<z.ZodObject<typeof certificatesConfig>>;
