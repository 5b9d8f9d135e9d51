import { z } from 'zod';

/**
 * A path segment that names a record by its UUID. Text of any other shape names nothing: it fails with `message`,
 * the route's own words for "not found" (or "invalid"), before any database sees it.
 */
export const uuidParam = (message: string) => z.string({ error: message }).pipe(z.guid({ error: message }));

const anyUuid = z.guid();

/** Whether a text is a UUID (of any version): only such a text may be looked up in a `uuid` column. */
export const isUuid = (value: string): boolean => anyUuid.safeParse(value).success;

/** `?page=`: which page of a list, from 1. */
export const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Página inválida' })
    .int('Página inválida')
    .min(1, 'Página inválida')
    .max(100_000, 'Página inválida')
    .default(1),
});
