import { lazy, Suspense } from 'react';
import { Link, NavLink } from '@ticketing/shared/router';
import { brand } from '@ticketing/proto/brand';
import { Badge, initials, useAuth } from '@ticketing/shared';
import { HeaderSearch } from './HeaderSearch.tsx';
import { MobileMenu } from './MobileMenu.tsx';
import { adminBarLinks, mainLinks } from './nav-links.ts';

// The account menu (and its popover code) downloads only for someone logged in.
const AvatarMenu = lazy(() => import('./AvatarMenu.tsx').then(({ AvatarMenu }) => ({ default: AvatarMenu })));

export function Header() {
  const auth = useAuth();
  return (
    <header className="header">
      <div className="header__inner">
        <Link to="/" className="header__logo">
          <span className="header__mark" aria-hidden="true" />
          <span className="header__name">{brand.name}</span>
          {auth.user?.isAdmin && <Badge tone="accent">ADMIN</Badge>}
        </Link>
        <nav className="header__nav" aria-label="Principal">
          {[...mainLinks(auth), ...adminBarLinks(auth)].map(({ to, label }) => (
            <NavLink key={to} to={to} className="header__link">
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="header__actions">
          <HeaderSearch />
          {auth.user && (
            <Suspense
              fallback={
                <span className="avatar" aria-hidden="true">
                  {initials(auth.user.name)}
                </span>
              }
            >
              <AvatarMenu user={auth.user} />
            </Suspense>
          )}
          <MobileMenu auth={auth} />
        </div>
      </div>
    </header>
  );
}
