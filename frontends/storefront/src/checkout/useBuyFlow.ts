import { useState, type MouseEvent } from 'react';
import { hasSession } from '@ticketing/shared';

/**
 * The buy button: a visitor gets the login prompt the button opens by itself; a session opens the checkout instead
 * (the server checks the rest). The stored session is read at the click: while a server-rendered page hydrates, the
 * rendered state still says nobody is logged in, and a buyer quick to press would be asked to log in again.
 */
export function useBuyFlow() {
  const [open, setOpen] = useState(false);

  function start(click: MouseEvent<HTMLButtonElement>) {
    if (!hasSession()) return;
    // The checkout instead of the prompt.
    click.preventDefault();
    setOpen(true);
  }

  return { open, setOpen, start };
}
