import * as RadixToast from '@radix-ui/react-toast';
import { cx } from './cx.ts';
import { dismissToast, useCurrentToast } from './toast.ts';

const DURATION_MS = 5000;

/** The toast area itself (Radix's toasts), downloaded with the first toast: see `Toaster`. */
export default function ToastArea() {
  const current = useCurrentToast();
  return (
    <RadixToast.Provider duration={DURATION_MS} swipeDirection="right" label="Notificação">
      {current && (
        <RadixToast.Root
          key={current.id}
          className={cx('toast', `toast--${current.variant}`)}
          // Errors interrupt the screen reader; confirmations wait their turn.
          type={current.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => open || dismissToast()}
        >
          <RadixToast.Title className="toast__title">{current.title}</RadixToast.Title>
          {current.description && (
            <RadixToast.Description className="toast__description">{current.description}</RadixToast.Description>
          )}
          <RadixToast.Close className="toast__close" aria-label="Fechar">
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      )}
      {/* Named for screen readers, with the key that jumps to it. */}
      <RadixToast.Viewport className="toast-viewport" label="Notificações ({hotkey})" />
    </RadixToast.Provider>
  );
}
