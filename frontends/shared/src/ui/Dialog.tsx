import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';
import { cx } from './cx.ts';

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

interface DialogContentProps {
  title: ReactNode;
  description?: ReactNode;
  /** `sheet` slides in from the side (the mobile menu). */
  variant?: 'dialog' | 'sheet';
  className?: string;
  children?: ReactNode;
}

/** A modal with its title, optional description and a close button; focus stays inside while it is open. */
export function DialogContent({ title, description, variant = 'dialog', className, children }: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="dialog__overlay" />
      <RadixDialog.Content
        className={cx('dialog__content', `dialog__content--${variant}`, className)}
        // Without a description Radix expects the attribute to be switched off explicitly.
        {...(description ? {} : { 'aria-describedby': undefined })}
      >
        <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
        {description && (
          <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description>
        )}
        {children}
        <RadixDialog.Close className="dialog__close" aria-label="Fechar">
          ×
        </RadixDialog.Close>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

interface ConfirmActionsProps {
  /** The button that closes the dialog and changes nothing ('Voltar', 'Manter pedido'). */
  keep: string;
  /** The button that goes ahead; with neither `action` nor `onConfirm` it submits the dialog's form. */
  confirm: ReactNode;
  /** The change the button makes (a mutation): the button waits while it runs. */
  action?: { isPending: boolean; mutate(): void };
  onConfirm?: () => void;
  loading?: boolean;
  variant?: ButtonVariant;
}

/** A confirmation's two buttons, the one that goes ahead last (destructive unless told otherwise). */
export function ConfirmActions({
  keep,
  confirm,
  action,
  onConfirm,
  loading,
  variant = 'destructive',
}: ConfirmActionsProps) {
  const go = action ? () => action.mutate() : onConfirm;
  return (
    <div className="wrap-row confirm-actions">
      <RadixDialog.Close asChild>
        <Button variant="outline">{keep}</Button>
      </RadixDialog.Close>
      <Button type={go ? 'button' : 'submit'} variant={variant} loading={action?.isPending ?? loading} onClick={go}>
        {confirm}
      </Button>
    </div>
  );
}
