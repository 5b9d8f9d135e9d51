import { useQueryClient } from '@tanstack/react-query';
import { identityMessages, updateProfileSchema, type UserView } from '@ticketing/proto';
import { api, Button, errorTitles, meQueryKey, PhoneField, TextField, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { CurrentPasswordField } from '../auth/CurrentPasswordField.tsx';

/** YYYY-MM-DD as people read it. */
const brazilianDate = (iso: string) => iso.split('-').reverse().join('/');

const formValues = (user: UserView) => ({
  name: user.name,
  email: user.email,
  // Accounts created without them (the seeded administrator) may leave them empty.
  phone: user.phone || undefined,
  address: user.address || undefined,
  partnerCompany: user.partnerCompany ?? '',
  currentPassword: '',
});

/** A field the account never had stays optional while it is left empty. */
const optionalWhileEmpty = (stored: string) => (stored ? {} : { setValueAs: (value: string) => value || undefined });

/** 'Informações Pessoais': the CPF and birth date are read-only; name, e-mail and phone need the password. */
export function PersonalDataTab({ user }: { user: UserView }) {
  const queryClient = useQueryClient();
  const form = useZodForm(updateProfileSchema, { defaultValues: formValues(user) });
  const { isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, ...changes }) => {
    const sensitive =
      changes.name !== user.name || changes.email !== user.email || (changes.phone ?? '') !== user.phone;
    if (sensitive && !currentPassword) {
      form.setError('currentPassword', { message: identityMessages.passwordRequired }, { shouldFocus: true });
      return;
    }
    try {
      const updated = await api<UserView>('/profile', {
        method: 'PUT',
        body: { ...changes, ...(sensitive ? { currentPassword } : {}) },
        keepSessionOn401: true,
      });
      queryClient.setQueryData(meQueryKey, updated);
      form.reset(formValues(updated));
      toast(
        updated.email !== user.email
          ? {
              title: 'Perfil atualizado',
              description: 'Enviamos um código para confirmar o novo e-mail.',
            }
          : { title: 'Perfil atualizado', description: 'Seus dados foram salvos.' },
      );
    } catch (error) {
      toastError(errorTitles.updateProfile, error);
    }
  });

  return (
    <form className="card account-form" onSubmit={onSubmit} noValidate>
      <h2 className="account-form__title">Informações Pessoais</h2>
      <TextField label="Nome completo" autoComplete="name" {...form.field('name')} />
      <div className="fields-grid">
        <TextField label="CPF" value={user.cpf} readOnly hint="O CPF não pode ser alterado." />
        <TextField label="Data de nascimento" value={user.birthDate ? brazilianDate(user.birthDate) : ''} readOnly />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="email"
          hint="Ao trocar o e-mail, você precisará confirmá-lo de novo."
          {...form.field('email')}
        />
        <PhoneField {...form.field('phone', optionalWhileEmpty(user.phone))} />
      </div>
      <TextField
        label="Endereço completo"
        autoComplete="street-address"
        {...form.field('address', optionalWhileEmpty(user.address))}
      />
      <TextField label="Empresa parceira (opcional)" autoComplete="organization" {...form.field('partnerCompany')} />
      <CurrentPasswordField
        hint="Necessária para alterar nome, e-mail ou telefone."
        {...form.field('currentPassword')}
      />
      <div className="account-form__actions">
        <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
          Salvar alterações
        </Button>
      </div>
    </form>
  );
}
