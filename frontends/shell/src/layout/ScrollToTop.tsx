import { useLayoutEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from '@ticketing/shared/router';

/**
 * A new page starts at its top, unless its address points into it (`#…`). Back and forward keep the place the
 * browser restores; a change of the same page's search parameters (filters, pages of a list) keeps the place too.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== NavigationType.Pop && !hash) window.scrollTo(0, 0);
    // Only a new pathname is a new page: the type and hash are read as they are when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  return null;
}
