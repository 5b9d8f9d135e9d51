import { useState } from 'react';
import { useNavigate } from '@ticketing/shared/router';
import { hasSession, toast } from '@ticketing/shared';

/**
 * The buy button: visitors are sent to log in first; a session opens the checkout (the server checks the rest). The
 * stored session is read at the click: while a server-rendered page hydrates, the rendered state still says nobody
 * is logged in, and a buyer quick to press would be sent to log in again.
 */
export function useBuyFlow() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  function start() {
    if (!hasSession()) {
      toast({
        title: 'Login necessário',
        description: 'Faça login ou cadastre-se para comprar ingressos',
        variant: 'destructive',
      });
      navigate('/login');
      return;
    }
    setOpen(true);
  }

  return { open, setOpen, start };
}
