import { useState } from 'react';
import { Link } from '@ticketing/shared/router';
import { emailOnlySchema } from '@ticketing/proto';
import { Button, errorTitles, TextField, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { postAnonymously } from '../auth/post-anonymously.ts';

export default function ForgotPassword() {
  const form = useZodForm(emailOnlySchema, { defaultValues: { email: '' } });
  const { isSubmitting } = form.formState;
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const answer = await postAnonymously<{ message: string }>('/auth/forgot-password', body);
      setSent(answer.message);
    } catch (error) {
      toastError(errorTitles.generic, error);
    }
  });

  return (
    <AuthLayout
      title="Esqueci minha senha"
      lead={sent ? undefined : 'Informe o e-mail da sua conta e enviaremos um link para criar uma nova senha.'}
      footer={
        <p>
          Lembrou a senha? <Link to="/login">Entrar</Link>
        </p>
      }
    >
      {sent ? (
        <div className="auth__success" role="status">
          <p>{sent}</p>
          <p className="auth__muted">O link vale por 1 hora. Confira também a caixa de spam.</p>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} />
          <Button type="submit" block size="lg" loading={isSubmitting}>
            Enviar link
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
