import { changePasswordSchema, resetPasswordSchema } from '@ticketing/proto';
import { api, Button, errorTitles, setToken, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { CurrentPasswordField } from '../auth/CurrentPasswordField.tsx';

/** The API's schema plus the confirmation, checked as on the reset-password page. */
const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: resetPasswordSchema.shape.confirmPassword })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: 'As senhas não coincidem.',
    path: ['confirmPassword'],
  });

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Every other session ends when the password changes; this browser keeps going with the token it gets back. */
export function ChangePasswordForm() {
  const form = useZodForm(changePasswordFormSchema, { defaultValues: EMPTY });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const { token } = await api<{ token: string }>('/profile/password', {
        method: 'PUT',
        body: { currentPassword, newPassword },
        keepSessionOn401: true,
      });
      setToken(token);
      form.reset(EMPTY);
      toast({
        title: 'Senha alterada com sucesso',
        description: 'Use a nova senha no próximo login. Outros dispositivos precisarão entrar de novo.',
      });
    } catch (error) {
      toastError(errorTitles.changePassword, error);
    }
  });

  return (
    <form className="card account-form" onSubmit={onSubmit} noValidate>
      <h2 className="account-form__title">Alterar senha</h2>
      <CurrentPasswordField {...form.field('currentPassword')} />
      <div className="fields-grid">
        <NewPasswordFields password={form.field('newPassword')} confirmation={form.field('confirmPassword')} />
      </div>
      <div className="account-form__actions">
        <Button type="submit" loading={isSubmitting}>
          Alterar senha
        </Button>
      </div>
    </form>
  );
}
