import type { BaseConfig } from '@ticketing/platform';
import { localUrl } from '@ticketing/proto';
import { z } from 'zod';

/** The orders service's own settings, on top of the platform's. */
export const ordersConfig = {
  /** The catalog: events (price, date, availability) and the spots held against them. */
  CATALOG_URL: z.url().default(localUrl('catalog')),
  /** Payments: one provider charge per order. */
  PAYMENTS_URL: z.url().default(localUrl('payments')),
  /** Identity: who a buyer is (name, e-mail, CPF) and whether the e-mail is verified. */
  IDENTITY_URL: z.url().default(localUrl('identity')),
  /** Courtesy: the promotional links whose price a code gives, one use per order. */
  COURTESY_URL: z.url().default(localUrl('courtesy')),
  /** A call to another service gives up after this long. */
  COLLABORATOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Creating an order's charge gives up after this long: payments creates only so many at once at the provider and
   * the others wait their turn, so through a sales rush it takes longer than any other call. Below the gateway's 30 s,
   * so the buyer hears why.
   */
  CHARGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(25_000),
  /** How often pending orders past their payment window are expired; 0 turns the periodic sweep off. */
  ORDER_EXPIRY_SWEEP_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * How often refunds still owed (late payments with no spot left, administrators' refunds, withdrawals, cancelled
   * events) are asked of payments again. Each is asked at once when recorded; this is the retry while payments is down. Never off: the
   * buyer's money depends on it.
   */
  ORDER_REFUND_RETRY_MS: z.coerce.number().int().min(10).default(30_000),
  /**
   * How long the catalog's 'sold out' is believed without asking again: while a crowd keeps pressing 'Comprar', each
   * refusal costs no call. A spot given back meanwhile is on offer again after it. 0 asks every time.
   */
  SOLD_OUT_BELIEVED_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Orders waiting for payment one buyer may have at once, counted by account and by CPF. */
  MAX_PENDING_ORDERS: z.coerce.number().int().min(1).max(100).default(3),
  /**
   * Purchases (`POST /api/orders`) one account may start per window: counted per account, never per address, as the
   * crowd of a sales rush shares its carriers' and venues' addresses.
   */
  ORDER_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(10),
  ORDER_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
};

export type OrdersConfig = BaseConfig & z.infer<z.ZodObject<typeof ordersConfig>>;
