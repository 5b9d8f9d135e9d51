import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast, useAuth } from '@ticketing/shared';

/** The buy button: visitors are sent to log in first; a session opens the checkout (the server checks the rest). */
export function useBuyFlow() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  function start() {
    if (auth.status === 'anonymous') {
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
