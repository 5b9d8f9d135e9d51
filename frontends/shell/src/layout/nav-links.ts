import type { Auth } from '@ticketing/shared';

export interface NavItem {
  to: string;
  label: string;
}

/** Área de acesso leads to the profile as soon as a session exists (even while it is being checked). */
export const accessLink = (auth: Auth): NavItem => ({
  to: auth.status === 'anonymous' ? '/login' : '/profile',
  label: 'Área de acesso',
});

/** The admin tools a user may open, in the order the menus list them. */
export function adminLinks(auth: Auth): NavItem[] {
  const links: NavItem[] = [];
  if (auth.user?.isAdmin) links.push({ to: '/verificar', label: 'Verificar QR' });
  if (auth.user?.canManageCourtesies) links.push({ to: '/cortesia-admin', label: 'Gerenciar Cortesias' });
  return links;
}

/** What the mobile menu and the desktop bar both offer. */
export const mainLinks = (auth: Auth): NavItem[] => [
  { to: '/eventos', label: 'Eventos' },
  { to: '/cortesia', label: 'Resgate de cortesia' },
  accessLink(auth),
];
