import { lazy, Suspense, useState } from 'react';
import { useCurrentToast } from './toast.ts';

/** The toast area's code; a page that must show toasts without a network (the door) loads it ahead. */
export const preloadToaster = () => import('./ToastArea.tsx');

const ToastArea = lazy(preloadToaster);

/**
 * The page's single toast area; the shell renders it once. Most visits never see a toast, so its code (and nothing
 * in the server-rendered HTML) comes with the first one, and stays for the next.
 */
export function Toaster() {
  const current = useCurrentToast();
  const [needed, setNeeded] = useState(false);
  if (current && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastArea />
    </Suspense>
  ) : null;
}
