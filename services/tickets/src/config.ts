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

export const verifierConfig = { ...shared, PORT: port(3006) };
export const workerConfig = { ...shared, PORT: port(3007) };

export type TicketsConfig = z.infer<z.ZodObject<typeof shared>>;
