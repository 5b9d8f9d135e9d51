import { z } from 'zod';

/**
 * A path segment that names a record by its UUID. Text of any other shape names nothing: it fails with `message`,
 * the route's own words for "not found" (or "invalid"), before any database sees it.
 */
export const uuidParam = (message: string) => z.string({ error: message }).pipe(z.guid({ error: message }));

const anyUuid = z.guid();

/** Whether a text is a UUID (of any version): only such a text may be looked up in a `uuid` column. */
export const isUuid = (value: string): boolean => anyUuid.safeParse(value).success;

/**
 * A whole number in a query string, from `min` to `max`, `fallback` when absent. Out of bounds it is refused with
 * `tooSmall` or `tooLarge` where given, else with `invalid`.
 */
export const queryInteger = (rule: {
  invalid: string;
  min: number;
  max: number;
  fallback: number;
  tooSmall?: string;
  tooLarge?: string;
}) =>
  z.coerce
    .number({ error: rule.invalid })
    .int(rule.invalid)
    .min(rule.min, rule.tooSmall ?? rule.invalid)
    .max(rule.max, rule.tooLarge ?? rule.invalid)
    .default(rule.fallback);

/** `?page=`: which page of a list, from 1. */
export const pageQuerySchema = z.object({
  page: queryInteger({ invalid: 'Página inválida', min: 1, max: 100_000, fallback: 1 }),
});

/** `?q=`: the words a search looks for, trimmed, at most 100 characters. */
export const searchText = (messages: { invalid: string; tooLong: string }) =>
  z.string({ error: messages.invalid }).trim().max(100, messages.tooLong);
