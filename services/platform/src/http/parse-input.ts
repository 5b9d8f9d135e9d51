import { AppError, badRequest } from '../errors.ts';
import type { z } from 'zod';

const INVALID_TEXT = 'Texto com caracteres inválidos';

function hasNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNulCharacter);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasNulCharacter);
  return false;
}

/**
 * Parses a request body or query with its contract. A missing body reads as `{}` (so the first missing field is
 * named); a NUL character, which no text column can store, is refused up front.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const value = input ?? {};
  if (hasNulCharacter(value)) throw badRequest(INVALID_TEXT);
  return schema.parse(value);
}

/**
 * Parses a route's path parameters with their schema from proto. A parameter names a record: one the schema refuses
 * (an id that is not a UUID) names nothing, so it is answered as an unknown one is, 404 with the schema's message,
 * unless the route says its refusals are `400` (a caller's mistake rather than a missing record).
 */
export function parseParams<S extends z.ZodType>(
  schema: S,
  params: Record<string, string | undefined>,
  status: 400 | 404 = 404,
): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError(status, parsed.error.issues[0]?.message ?? 'Não encontrado');
  return parsed.data;
}
