import { lazy, Suspense, useState } from 'react';
import type { Auth } from '@ticketing/shared';
import { MenuIcon } from './icons.tsx';

// The sheet (and its dialog code) downloads on the first tap, not with every page.
const MobileSheet = lazy(() => import('./MobileSheet.tsx').then(({ MobileSheet }) => ({ default: MobileSheet })));

/** Small screens: the main links in a side sheet, closed again once a link is chosen. */
export function MobileMenu({ auth }: { auth: Auth }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="header__icon header__menu-button"
        aria-label="Abrir menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <MenuIcon />
      </button>
      {open && (
        <Suspense fallback={null}>
          <MobileSheet auth={auth} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
