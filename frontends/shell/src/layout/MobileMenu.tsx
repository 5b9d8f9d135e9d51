import { useRef } from 'react';
import { NavLink } from '@ticketing/shared/router';
import type { Auth } from '@ticketing/shared';
import { MenuIcon } from './icons.tsx';
import { mainLinks } from './nav-links.ts';

const MENU_ID = 'menu-movel';

/**
 * Small screens: the main links in a side sheet, closed again once a link is chosen. The browser itself opens it
 * (a popover), so the first tap answers before the page's code has arrived.
 */
export function MobileMenu({ auth }: { auth: Auth }) {
  const sheet = useRef<HTMLElement>(null);
  return (
    <>
      <button
        type="button"
        className="header__icon header__menu-button"
        aria-label="Abrir menu"
        popoverTarget={MENU_ID}
      >
        <MenuIcon />
      </button>
      <nav id={MENU_ID} ref={sheet} popover="auto" className="mobile-sheet" aria-label="Menu">
        <div className="mobile-sheet__top">
          <p className="mobile-sheet__title">Menu</p>
          <button
            type="button"
            className="dialog__close"
            aria-label="Fechar"
            popoverTarget={MENU_ID}
            popoverTargetAction="hide"
          >
            ×
          </button>
        </div>
        {mainLinks(auth).map(({ to, label }) => (
          <NavLink key={to} to={to} className="mobile-nav__link" onClick={() => sheet.current?.hidePopover()}>
            {label}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
