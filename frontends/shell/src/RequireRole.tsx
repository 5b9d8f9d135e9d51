import { useEffect, type ReactNode } from 'react';
import { useNavigate } from '@ticketing/shared/router';
import { toast, useAuth } from '@ticketing/shared';
import { PageLoading } from './pages/PageLoading.tsx';
import { mayOpen, refusalOf, type Access } from './routes.ts';

/**
 * Admin pages: a spinner while the user is checked, then the page for the roles in `access`, or a toast naming the
 * role the page needs and a way out.
 */
export function RequireRole({ access, children }: { access: Access; children: ReactNode }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const verdict =
    auth.status === 'loading'
      ? 'checking'
      : auth.status === 'anonymous'
        ? 'login'
        : mayOpen(auth.user, access)
          ? 'allowed'
          : 'denied';

  useEffect(() => {
    if (verdict === 'login') {
      toast({
        title: 'Acesso negado',
        description: 'Você precisa fazer login para acessar esta página',
        variant: 'destructive',
      });
      navigate('/login', { replace: true });
    } else if (verdict === 'denied') {
      toast({
        title: 'Acesso negado',
        description: refusalOf(access),
        variant: 'destructive',
      });
      navigate('/', { replace: true });
    }
  }, [verdict, navigate, access]);

  return verdict === 'allowed' ? children : <PageLoading />;
}
