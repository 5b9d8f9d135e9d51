import { createHash, randomBytes } from 'node:crypto';
import type { EventPayload } from '@ticketing/proto';
import { insertLink, type LinkTable } from '../data/emailed-links-repository.ts';
import type { IdentityDeps, User } from './user.ts';

/** A kind of single-use link e-mailed to an account's owner: a password reset, a sign-in link. */
export interface LinkKind {
  table: LinkTable;
  /** The event the mail service turns into the e-mail. */
  event: 'user.password-reset-requested' | 'user.sign-in-link-requested';
  lifetimeMs: number;
  /** The Redis key that holds back another e-mail of this kind to the address for a while. */
  cooldownKey(email: string): string;
}

/** What is stored of a link's token: its SHA-256, never the token. */
export const linkTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Stores a new link of `kind` for `user` and has it e-mailed, in one transaction. The caller holds the address's
 * cooldown: when nothing could be sent it is lifted, so the next request sends one at once.
 */
export async function emailLink(deps: IdentityDeps, kind: LinkKind, user: User): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + kind.lifetimeMs);
  await deps.db
    .transaction(async (trx) => {
      await insertLink(trx, kind.table, { tokenHash: linkTokenHash(token), userId: user.id, expiresAt });
      const payload: EventPayload<LinkKind['event']> = {
        userId: user.id,
        email: user.email,
        name: user.name,
        token,
        expiresAt: expiresAt.toISOString(),
      };
      await deps.outbox.add(trx, kind.event, user.id, payload);
    })
    .catch(async (error: unknown) => {
      await deps.redis.del(kind.cooldownKey(user.email)).catch(() => 0);
      throw error;
    });
}
