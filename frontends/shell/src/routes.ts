/** A page module a remote exposes, as `<remote>/<Page>` (see each remote's rspack.config.ts). */
export type RemotePageId =
  | `storefront/${'Home' | 'Events' | 'EventDetail' | 'Courtesy'}`
  | `profile/${'Login' | 'Register' | 'ForgotPassword' | 'ResetPassword' | 'VerifyEmail' | 'Profile'}`
  | `admin/${'Scanner' | 'CourtesyAdmin' | 'MassSend' | 'AdminTest'}`;

export interface PageRoute {
  path: string;
  page: RemotePageId;
  /** Admin pages are checked here, before their code is even downloaded. */
  access?: 'admin';
}

/** Every page of the site and the remote that renders it. Anything else is the 404 page. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { path: '/', page: 'storefront/Home' },
  { path: '/eventos', page: 'storefront/Events' },
  { path: '/event/:id', page: 'storefront/EventDetail' },
  { path: '/events/:id', page: 'storefront/EventDetail' },
  { path: '/cortesia', page: 'storefront/Courtesy' },
  { path: '/login', page: 'profile/Login' },
  { path: '/register', page: 'profile/Register' },
  { path: '/forgot-password', page: 'profile/ForgotPassword' },
  { path: '/reset-password', page: 'profile/ResetPassword' },
  { path: '/verify-email', page: 'profile/VerifyEmail' },
  { path: '/profile', page: 'profile/Profile' },
  { path: '/verificar', page: 'admin/Scanner', access: 'admin' },
  { path: '/cortesia-admin', page: 'admin/CourtesyAdmin', access: 'admin' },
  { path: '/cortesia-envio-em-massa', page: 'admin/MassSend', access: 'admin' },
  { path: '/admin-test', page: 'admin/AdminTest' },
];
