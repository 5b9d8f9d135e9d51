// Free of zod: the shell's first load imports the page refusals from here.

/** What a signed-in person may do, as the session token states it and every service checks it. */
export const ROLES = ['admin', 'courtesyManager', 'doorStaff'] as const;
export type Role = (typeof ROLES)[number];
/** The roles an administrator may grant to an account; `admin` itself is never granted through the API. */
export const GRANTABLE_ROLES = ['courtesyManager', 'doorStaff'] as const satisfies readonly Role[];
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];
/** Why someone signed in is refused a call (403): the role it needs, named (the first, when several may). */
export const ROLE_REQUIRED = {
  admin: 'Acesso restrito a administradores',
  courtesyManager: 'Acesso restrito a quem gerencia cortesias',
  doorStaff: 'Acesso restrito à equipe de portaria',
} as const satisfies Record<Role, string>;
/** The same, for a page of the site. */
export const PAGE_ROLE_REQUIRED = {
  admin: 'Apenas administradores podem acessar esta página',
  courtesyManager: 'Apenas quem gerencia cortesias pode acessar esta página',
  doorStaff: 'Apenas a equipe de portaria pode acessar esta página',
} as const satisfies Record<Role, string>;
