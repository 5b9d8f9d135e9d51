import { useState } from 'react';
import { Button, isApiError, toast, toastError, type ButtonProps } from '@ticketing/shared';
import { RESEND_COOLDOWN_SECONDS, useCooldown } from './useCooldown.ts';

interface ResendButtonProps extends Pick<ButtonProps, 'variant' | 'size' | 'block' | 'className'> {
  /** Asks for a new code; resolves with the server's message. */
  send(): Promise<string>;
  /** Title of the toast when sending fails (spec §8). */
  errorTitle: string;
  /** A code went out just now: the button starts locked. */
  startLocked?: boolean;
}

/** "Reenviar código", locked for 30 seconds after each code, with the seconds left on the button. */
export function ResendButton({ send, errorTitle, startLocked = false, ...button }: ResendButtonProps) {
  const cooldown = useCooldown(RESEND_COOLDOWN_SECONDS, { startLocked });
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      const message = await send();
      toast({ title: 'Código reenviado', description: message });
      cooldown.start();
    } catch (error) {
      toastError(errorTitle, error);
      // The server's own cooldown was still running: show it on the button too.
      if (isApiError(error, 429)) cooldown.start();
    } finally {
      setSending(false);
    }
  }

  return (
    <Button variant="outline" {...button} loading={sending} disabled={cooldown.remaining > 0} onClick={resend}>
      {cooldown.remaining > 0 ? `Reenviar código em ${cooldown.remaining}s` : 'Reenviar código'}
    </Button>
  );
}
