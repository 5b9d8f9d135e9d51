import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from '@ticketing/shared/router';
import type { UserView } from '@ticketing/proto';
import { Button, buttonClass, errorTitles, startSession, toastError } from '@ticketing/shared';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { destinationAfterLogin, verifyEmailPath } from '../auth/after-login.ts';
import { postAnonymously } from '../auth/post-anonymously.ts';

const TITLE = 'Entrar com link';

/**
 * The page of the e-mailed sign-in link. The link is spent only by the button: a mail scanner that opens the
 * address does not use it up.
 */
export default function SignInLink() {
  const token = useSearchParams()[0].get('token')?.trim();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [signingIn, setSigningIn] = useState(false);

  if (!token) {
    return (
      <AuthLayout title={TITLE}>
        <p className="auth__message" role="alert">
          Link de acesso inválido ou ausente.
        </p>
        <Link to="/login" className={buttonClass('primary', 'lg', true)}>
          Voltar para o login
        </Link>
      </AuthLayout>
    );
  }

  const signIn = async () => {
    setSigningIn(true);
    try {
      const session = await postAnonymously<{ token: string; user: UserView }>('/auth/sign-in-link', { token });
      await startSession(queryClient, session.token);
      navigate(session.user.emailVerified ? destinationAfterLogin() : verifyEmailPath(session.user.email), {
        replace: true,
      });
    } catch (error) {
      setSigningIn(false);
      toastError(errorTitles.login, error);
    }
  };

  return (
    <AuthLayout title={TITLE} lead="Por segurança, este acesso à sua conta é feito pelo link que enviamos por e-mail.">
      <Button type="button" block size="lg" loading={signingIn} onClick={signIn}>
        Entrar na minha conta
      </Button>
      <p className="auth__message">
        O link vale por 15 minutos e só pode ser usado uma vez. Se ele expirou, <Link to="/login">faça login</Link>{' '}
        novamente.
      </p>
    </AuthLayout>
  );
}
