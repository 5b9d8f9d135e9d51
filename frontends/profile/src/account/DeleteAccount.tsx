import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@ticketing/shared/router';
import { deleteAccountSchema } from '@ticketing/proto';
import { api, Button, clearToken, errorTitles, meQueryKey, toast, toastError } from '@ticketing/shared';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { useZodForm } from '@ticketing/shared/forms';
import { ordersQueryKey } from './order-labels.ts';
import { CurrentPasswordField } from '../auth/CurrentPasswordField.tsx';

type Step = 'closed' | 'warn' | 'password';

/** Deleting the account asks twice: a warning, then the password. */
export function DeleteAccount() {
  const [step, setStep] = useState<Step>('closed');
  return (
    <section className="card account-form account-form--danger" aria-labelledby="excluir-conta">
      <h2 id="excluir-conta" className="account-form__title">
        Excluir conta
      </h2>
      <p>Seus dados pessoais serão apagados e você não poderá mais entrar com esta conta.</p>
      <Dialog open={step !== 'closed'} onOpenChange={(open) => setStep(open ? 'warn' : 'closed')}>
        <DialogTrigger asChild>
          <Button variant="destructive">Excluir minha conta</Button>
        </DialogTrigger>
        {step === 'warn' && (
          <DialogContent
            title="Excluir sua conta?"
            description="Esta ação é permanente. Seus dados pessoais serão apagados e você perderá o acesso aos seus pedidos e ingressos por este site."
          >
            <ConfirmActions keep="Manter minha conta" confirm="Continuar" onConfirm={() => setStep('password')} />
          </DialogContent>
        )}
        {step === 'password' && <PasswordStep />}
      </Dialog>
    </section>
  );
}

function PasswordStep() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useZodForm(deleteAccountSchema, { defaultValues: { password: '' } });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const { message } = await api<{ message: string }>('/profile', {
        method: 'DELETE',
        body,
        keepSessionOn401: true,
      });
      clearToken();
      // Leave the page before the session is forgotten, or the profile would send the visitor to log in.
      await navigate('/', { replace: true });
      queryClient.removeQueries({ queryKey: ordersQueryKey });
      await queryClient.resetQueries({ queryKey: meQueryKey });
      toast({ title: message });
    } catch (error) {
      toastError(errorTitles.deleteAccount, error);
    }
  });

  return (
    <DialogContent title="Confirme com sua senha" description="Digite sua senha para confirmar a exclusão.">
      <form onSubmit={onSubmit} noValidate>
        <CurrentPasswordField label="Senha" autoFocus {...form.field('password')} />
        <ConfirmActions keep="Cancelar" confirm="Excluir conta definitivamente" loading={isSubmitting} />
      </form>
    </DialogContent>
  );
}
