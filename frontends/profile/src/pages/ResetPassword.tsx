import { Link, useNavigate, useSearchParams } from '@ticketing/shared/router';
import { resetPasswordSchema } from '@ticketing/proto';
import { Button, buttonClass, errorTitles, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { postAnonymously } from '../auth/post-anonymously.ts';

const TITLE = 'Redefinir senha';

export default function ResetPassword() {
  const token = useSearchParams()[0].get('token')?.trim();
  if (!token) {
    return (
      <AuthLayout title={TITLE}>
        <p className="auth__message" role="alert">
          Token inválido ou ausente.
        </p>
        <Link to="/forgot-password" className={buttonClass('primary', 'lg', true)}>
          Pedir um novo link
        </Link>
      </AuthLayout>
    );
  }
  return <ResetPasswordForm token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useZodForm(resetPasswordSchema, { defaultValues: { token, newPassword: '', confirmPassword: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const answer = await postAnonymously<{ message: string }>('/auth/reset-password', body);
      toast({ title: 'Senha redefinida', description: answer.message });
      navigate('/login', { replace: true });
    } catch (error) {
      toastError(errorTitles.generic, error);
    }
  });

  return (
    <AuthLayout title={TITLE} lead="Escolha uma nova senha para a sua conta.">
      <form onSubmit={onSubmit} noValidate>
        {errors.token && (
          <p className="auth__message" role="alert">
            {errors.token.message}
          </p>
        )}
        <NewPasswordFields password={form.field('newPassword')} confirmation={form.field('confirmPassword')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Redefinir senha
        </Button>
      </form>
    </AuthLayout>
  );
}
