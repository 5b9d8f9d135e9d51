import type { Auth } from '@ticketing/shared';
import { accessOf, mayOpen } from '../routes.ts';

export interface NavItem {
  to: string;
  label: string;
  /** Only in the account menu: the desktop bar has no room left for it. */
  menuOnly?: boolean;
}

/** Área de acesso leads to the profile as soon as a session exists (even while it is being checked). */
export const accessLink = (auth: Auth): NavItem => ({
  to: auth.status === 'anonymous' ? '/login' : '/profile',
  label: 'Área de acesso',
});

/** The admin tools, in the order the menus list them. */
const ADMIN_LINKS: readonly NavItem[] = [
  { to: '/verificar', label: 'Verificar QR' },
  { to: '/painel-porta', label: 'Painel da Portaria', menuOnly: true },
  { to: '/admin/eventos', label: 'Gerenciar Eventos', menuOnly: true },
  { to: '/admin/vendas', label: 'Vendas', menuOnly: true },
  { to: '/admin/pedidos', label: 'Pedidos e pessoas', menuOnly: true },
  { to: '/cortesia-admin', label: 'Gerenciar Cortesias' },
];

/** The admin tools the user's roles open (door staff: only the scanner), as the account menu lists them. */
export const adminLinks = (auth: Auth): NavItem[] => ADMIN_LINKS.filter(({ to }) => mayOpen(auth.user, accessOf(to)));

/** The admin tools the desktop bar shows beside the main links. */
export const adminBarLinks = (auth: Auth): NavItem[] => adminLinks(auth).filter(({ menuOnly }) => !menuOnly);

/** What the mobile menu and the desktop bar both offer. */
export const mainLinks = (auth: Auth): NavItem[] => [
  { to: '/eventos', label: 'Eventos' },
  { to: '/cortesia', label: 'Resgate de cortesia' },
  accessLink(auth),
];
