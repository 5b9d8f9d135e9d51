import type { Knex, Logger, Outbox, Redis } from '@ticketing/platform';
import { ROLES, identityMessages, type GrantableRole, type Role } from '@ticketing/proto';
import type { IdentitySettings } from '../config.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { RenewalLimit } from './renewal-limit.ts';
import type { SigningKeys } from './signing-keys.ts';

/** An account as the use cases see it; optional fields are null for the administrator created at start. */
export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  passwordHash: string | null;
  name: string;
  cpf: string | null;
  phone: string | null;
  /** ISO calendar date, 'YYYY-MM-DD'. */
  birthDate: string | null;
  address: string | null;
  partnerCompany: string | null;
  isAdmin: boolean;
  /** Roles an administrator granted on top of the configured ones. */
  grantedRoles: GrantableRole[];
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** What every identity use case needs. A transaction may stand in for `db`: the use case then nests in it. */
export interface IdentityDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  redis: Redis;
  settings: IdentitySettings;
  keys: SigningKeys;
  throttle: LoginThrottle;
  renewals: RenewalLimit;
}

/** The caller as a verified token describes them. */
export interface Session {
  userId: string;
  /** The session the token belongs to, and the token's generation in it (a renewal supersedes it). */
  sessionId: string;
  generation: number;
  tokenId: string | undefined;
  expiresAt: Date;
  /** The session was opened with "lembrar-me" (it may last longer). */
  remembered: boolean;
}

export const messages = {
  ...identityMessages,
  sessionInvalid: 'Sessão inválida ou expirada. Faça login novamente.',
  accountDeleted: 'Conta excluída com sucesso',
  passwordChanged: 'Senha alterada com sucesso',
} as const;

/** The name an account keeps once deleted, so orders and tickets still read sensibly. */
export const DELETED_ACCOUNT_NAME = 'Conta excluída';

/**
 * What the account may do, as its tokens state it. Courtesy managers are the administrators listed in the
 * configuration (spec) or granted the role; door staff are listed or granted. Only an account whose e-mail is
 * verified holds any: the lists name addresses, and whoever types an address has not proved it is theirs.
 */
export function rolesOf(
  settings: IdentitySettings,
  user: Pick<User, 'isAdmin' | 'email' | 'emailVerified' | 'grantedRoles'>,
): Role[] {
  if (!user.emailVerified) return [];
  const granted = new Set<Role>(user.grantedRoles);
  if (user.isAdmin) granted.add('admin');
  if (user.isAdmin && settings.courtesyManagers.has(user.email)) granted.add('courtesyManager');
  if (settings.doorStaff.has(user.email)) granted.add('doorStaff');
  return ROLES.filter((role) => granted.has(role));
}
