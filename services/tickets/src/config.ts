import { z } from 'zod';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Settings both tickets processes read, on top of the platform's. */
const shared = {
  /** Both processes work on one schema, whatever their names: the verifier reads what the worker issues. */
  DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('tickets'),
  /** How long a process trusts the ticket public keys it read before reading them again. */
  TICKET_KEYS_REFRESH_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
};

/** The door's budgets, per signed-in staffer. */
const door = {
  /** Look-ups a staffer may run per minute (typing pauses of 300 ms, guest after guest). */
  DOOR_SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Readings (scans, look-up admissions, synced batches) a staffer may send per minute: a scan every 300 ms is 200. */
  DOOR_READINGS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Live panels one account may keep open at once; one more is refused until one closes. */
  DOOR_LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).default(3),
  /** How often a live panel's token and assignment are checked again; a failed check closes the stream. */
  DOOR_LIVE_RECHECK_SECONDS: z.coerce.number().int().min(1).max(300).default(20),
};

export const verifierConfig = { ...shared, ...door, PORT: port(3006) };
export const workerConfig = { ...shared, PORT: port(3007) };

export type TicketsConfig = z.infer<z.ZodObject<typeof shared>>;
