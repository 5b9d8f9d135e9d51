import { lazy, Suspense, type ComponentType } from 'react';
import { hasSession, Spinner } from '@ticketing/shared';
import type { CheckoutProps } from './types.ts';

/** The dialog once downloaded: it then renders at once, where a lazy component would still suspend for a moment. */
let downloaded: ComponentType<CheckoutProps> | undefined;

// The dialog and the order's money rules download on the first purchase, not with the page.
const loadDialog = () =>
  import('./CheckoutDialog.tsx').then((module) => {
    downloaded = module.default;
    return module;
  });
const LazyCheckoutDialog = lazy(loadDialog);

/** Starts downloading the dialog when a purchase looks likely (the pointer reaches the buy button). */
export const preloadCheckout = () => void loadDialog();

// Someone signed in may buy at the first tap: their dialog downloads with the page (never on the server).
if (typeof window !== 'undefined' && hasSession()) preloadCheckout();

export function Checkout(props: CheckoutProps) {
  if (!props.open) return null;
  const CheckoutDialog = downloaded ?? LazyCheckoutDialog;
  return (
    <Suspense fallback={<Spinner label="Carregando..." />}>
      <CheckoutDialog {...props} />
    </Suspense>
  );
}
