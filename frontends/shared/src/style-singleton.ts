/**
 * `react-style-singleton` as the build provides it (Radix dialogs and menus lock the page's scroll with it): the
 * same API, but the styles go into a stylesheet built in script and adopted by the document instead of an inline
 * `<style>` tag, which the site's Content-Security-Policy (`style-src 'self'`) refuses.
 */
import { useEffect } from 'react';

/** One stylesheet shared by every user: added by the first, removed with the last. */
export function stylesheetSingleton() {
  let users = 0;
  let sheet: CSSStyleSheet | undefined;
  return {
    add(styles: string) {
      if (users++ > 0) return;
      sheet = new CSSStyleSheet();
      sheet.replaceSync(styles);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    },
    remove() {
      if (--users > 0 || !sheet) return;
      const removed = sheet;
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== removed);
      sheet = undefined;
    },
  };
}

/** A hook that keeps the styles in the page while a component using it is mounted. */
export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    // Like the original: the styles of the first mount stay unless they are declared dynamic.
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
    }, [styles && isDynamic]);
  };
}

/** A component that keeps `styles` in the page while it is mounted. */
export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
