import type { BaseConfig } from '@ticketing/platform';
import { z } from 'zod';

/** The catalog's own settings, on top of the platform's. */
export const catalogConfig = {
  /**
   * A spot held for an order being placed is given back unless the order confirms it within this long: an orders
   * process that stops between the hold and its record of the order leaves nothing held for good.
   */
  PROVISIONAL_HOLD_SECONDS: z.coerce.number().int().min(10).max(3600).default(120),
  /** How often provisional holds past their time are given back; 0 turns the sweep off. */
  HOLD_SWEEP_MS: z.coerce.number().int().min(0).default(30_000),
};

export type CatalogConfig = BaseConfig & z.infer<z.ZodObject<typeof catalogConfig>>;
