import { api } from '@ticketing/shared';

/**
 * A step of signing up or in (register, log in, verify the e-mail, reset the password): sent without the session,
 * since the person has none yet or is replacing it.
 */
export const postAnonymously = <T>(path: string, body: unknown) =>
  api<T>(path, { method: 'POST', body, anonymous: true });
