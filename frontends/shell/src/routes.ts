import type { UserView } from '@ticketing/proto';
import { PAGE_ROLE_REQUIRED, type Role } from '@ticketing/proto/roles';

/** A page module a remote exposes, as `<remote>/<Page>` (see each remote's rspack.config.ts). */
export type RemotePageId =
  | `storefront/${'Home' | 'Events' | 'EventDetail' | 'Courtesy' | 'Certificate'}`
  | `profile/${'Login' | 'Register' | 'ForgotPassword' | 'ResetPassword' | 'SignInLink' | 'VerifyEmail' | 'Profile'}`
  | `door/${'Scanner' | 'DoorPanel'}`
  | `admin/${
      | 'CourtesyAdmin'
      | 'MassSend'
      | 'AdminTest'
      | 'Events'
      | 'EventEditor'
      | 'Participants'
      | 'Certificates'
      | 'Sales'
      | 'Orders'
      | 'CourtesyRedemptions'
      | 'Coupons'
      | 'Finance'}`;

/** The roles that may open a page, any one of them: at least one. */
export type Access = readonly [Role, ...Role[]];

export interface PageRoute {
  path: string;
  page: RemotePageId;
  /**
   * The roles that may open the page (any one of them), as the services behind it check them. Checked here,
   * before the page's code is even downloaded.
   */
  access?: Access;
}

/** The door scanner: door staff and administrators. */
const DOOR: Access = ['doorStaff', 'admin'];
/** The door's live panel and the back office, for whoever runs the events. */
const ADMINS: Access = ['admin'];
/** Courtesy links and mass sending. */
const COURTESIES: Access = ['courtesyManager'];

/** Every page of the site and the remote that renders it, one line each. Anything else is the 404 page. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { path: '/', page: 'storefront/Home' },
  { path: '/eventos', page: 'storefront/Events' },
  { path: '/event/:id', page: 'storefront/EventDetail' },
  { path: '/events/:id', page: 'storefront/EventDetail' },
  { path: '/cortesia', page: 'storefront/Courtesy' },
  { path: '/certificados/:code', page: 'storefront/Certificate' },
  { path: '/login', page: 'profile/Login' },
  { path: '/register', page: 'profile/Register' },
  { path: '/forgot-password', page: 'profile/ForgotPassword' },
  { path: '/reset-password', page: 'profile/ResetPassword' },
  { path: '/entrar-com-link', page: 'profile/SignInLink' },
  { path: '/verify-email', page: 'profile/VerifyEmail' },
  { path: '/profile', page: 'profile/Profile' },
  { path: '/verificar', page: 'door/Scanner', access: DOOR },
  { path: '/painel-porta', page: 'door/DoorPanel', access: ADMINS },
  { path: '/cortesia-admin', page: 'admin/CourtesyAdmin', access: COURTESIES },
  { path: '/cortesia-envio-em-massa', page: 'admin/MassSend', access: COURTESIES },
  { path: '/cortesia-admin/:id/resgates', page: 'admin/CourtesyRedemptions', access: COURTESIES },
  { path: '/admin/eventos', page: 'admin/Events', access: ADMINS },
  { path: '/admin/eventos/novo', page: 'admin/EventEditor', access: ADMINS },
  { path: '/admin/eventos/:id', page: 'admin/EventEditor', access: ADMINS },
  { path: '/admin/eventos/:id/participantes', page: 'admin/Participants', access: ADMINS },
  { path: '/admin/eventos/:id/certificados', page: 'admin/Certificates', access: ADMINS },
  { path: '/admin/vendas', page: 'admin/Sales', access: ADMINS },
  { path: '/admin/pedidos', page: 'admin/Orders', access: ADMINS },
  { path: '/admin/pedidos/:id', page: 'admin/Orders', access: ADMINS },
  { path: '/admin/cupons', page: 'admin/Coupons', access: ADMINS },
  { path: '/admin/financeiro', page: 'admin/Finance', access: ADMINS },
  { path: '/admin-test', page: 'admin/AdminTest' },
];

/** Whether `user` holds one of the roles a page asks for; a page that asks for none is open to everyone. */
export const mayOpen = (user: UserView | undefined, access: readonly Role[] | undefined) =>
  !access || (user?.roles.some((role) => access.includes(role)) ?? false);

/** What someone signed in without the page's role is told: the role it needs (the first, when several may). */
export const refusalOf = (access: Access) => PAGE_ROLE_REQUIRED[access[0]];

/** The roles the page at `path` asks for. */
export const accessOf = (path: string) => PAGE_ROUTES.find((route) => route.path === path)?.access;
