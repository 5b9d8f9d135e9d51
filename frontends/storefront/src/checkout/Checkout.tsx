import { lazy, Suspense } from 'react';
import { Spinner } from '@ticketing/shared';
import type { CheckoutProps } from './types.ts';

// The dialog and the order's money rules download on the first purchase, not with the page.
const loadDialog = () => import('./CheckoutDialog.tsx');
const CheckoutDialog = lazy(loadDialog);

/** Starts downloading the dialog when a purchase looks likely (the pointer reaches the buy button). */
export const preloadCheckout = () => void loadDialog();

export function Checkout(props: CheckoutProps) {
  if (!props.open) return null;
  return (
    // Usually already downloaded (see preloadCheckout); the dialog's own code is part of what is awaited.
    <Suspense fallback={<Spinner label="Carregando..." />}>
      <CheckoutDialog {...props} />
    </Suspense>
  );
}
