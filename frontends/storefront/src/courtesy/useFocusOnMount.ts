import { useEffect, useRef } from 'react';

/**
 * A step that replaces the previous one starts at the top of the page and takes focus, so screen readers announce
 * it and Tab starts from it (the sticky header would hide a heading merely scrolled into view).
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    window.scrollTo({ top: 0 });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}
