import { badRequest } from '../errors.ts';
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
