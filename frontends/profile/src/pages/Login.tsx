import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@ticketing/shared/router';
import { loginSchema, type UserView } from '@ticketing/proto';
import {
  Button,
  Checkbox,
  errorTitles,
  isApiError,
  startSession,
  TextField,
  toast,
  toastError,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { destinationAfterLogin, verifyEmailPath } from '../auth/after-login.ts';
import { postAnonymously } from '../auth/post-anonymously.ts';
import { CurrentPasswordField } from '../auth/CurrentPasswordField.tsx';

export default function Login() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useZodForm(loginSchema, { defaultValues: { email: '', password: '', rememberMe: false } });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (credentials) => {
    try {
      const { token, user } = await postAnonymously<{ token: string; user: UserView }>('/auth/login', credentials);
      await startSession(queryClient, token);
      if (!user.emailVerified) {
        toast({
          title: 'Verificação necessária',
          description: 'Digite o código de 6 dígitos que enviamos para o seu e-mail.',
        });
        navigate(verifyEmailPath(user.email));
        return;
      }
      navigate(destinationAfterLogin(), { replace: true });
    } catch (error) {
      // After many wrong passwords on the account, a new device signs in with the link the server e-mailed.
      if (isApiError(error, 403)) {
        toast({ title: 'Confira seu e-mail', description: error.message });
        return;
      }
      toastError(errorTitles.login, error, 'Verifique suas credenciais');
    }
  });

  return (
    <AuthLayout
      title="Entrar"
      lead="Acesse sua conta para comprar ingressos e acompanhar seus pedidos."
      footer={
        <p>
          Ainda não tem conta? <Link to="/register">Cadastre-se</Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} />
        <CurrentPasswordField label="Senha" {...form.field('password')} />
        <div className="auth__row">
          <Checkbox label="Lembrar-me" {...form.register('rememberMe')} />
          <Link to="/forgot-password" className="auth__link">
            Esqueci minha senha
          </Link>
        </div>
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Entrar
        </Button>
      </form>
    </AuthLayout>
  );
}
