import type { UserView } from '@ticketing/proto';
import type { IdentitySettings } from '../config.ts';
import { rolesOf, type User } from '../domain/user.ts';

/** The current user as the pages read it (spec §3), never with the password hash or the session version. */
export function toUserView(user: User, settings: IdentitySettings): UserView {
  const roles = rolesOf(settings, user);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    isAdmin: roles.includes('admin'),
    cpf: user.cpf ?? '',
    phone: user.phone ?? '',
    address: user.address ?? '',
    birthDate: user.birthDate ?? '',
    partnerCompany: user.partnerCompany,
    canManageCourtesies: roles.includes('courtesyManager'),
    roles,
  };
}
