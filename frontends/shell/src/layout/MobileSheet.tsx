import { NavLink } from '@ticketing/shared/router';
import type { Auth } from '@ticketing/shared';
import { Dialog, DialogContent } from '@ticketing/shared/primitives';
import { mainLinks } from './nav-links.ts';

/** The side sheet of the mobile menu; closing it (a link, Escape, the close button) unmounts it. */
export function MobileSheet({ auth, onClose }: { auth: Auth; onClose(): void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Menu" variant="sheet">
        <nav className="mobile-nav" aria-label="Menu">
          {mainLinks(auth).map(({ to, label }) => (
            <NavLink key={to} to={to} className="mobile-nav__link" onClick={onClose}>
              {label}
            </NavLink>
          ))}
        </nav>
      </DialogContent>
    </Dialog>
  );
}
