import { Link, useNavigate } from '@ticketing/shared/router';
import { registerFormSchema } from '@ticketing/proto';
import {
  birthDateMask,
  Button,
  Checkbox,
  cpfMask,
  errorTitles,
  PhoneField,
  TextField,
  toast,
  toastError,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { verifyEmailPath, type VerifyEmailState } from '../auth/after-login.ts';
import { postAnonymously } from '../auth/post-anonymously.ts';

export default function Register() {
  const navigate = useNavigate();
  const form = useZodForm(registerFormSchema, {
    defaultValues: {
      name: '',
      cpf: '',
      birthDate: '',
      email: '',
      emailConfirm: '',
      phone: '',
      address: '',
      password: '',
      confirmPassword: '',
    },
  });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ name, cpf, email, phone, address, password }) => {
    try {
      // The API reads the birth date as typed (dd/mm/aaaa); confirmations and terms stay on the page.
      const birthDate = form.getValues('birthDate');
      // The answer is the same whether or not the e-mail or the CPF already had an account.
      const registered = await postAnonymously<{ email: string; message: string }>('/auth/register', {
        name,
        cpf,
        birthDate,
        email,
        phone,
        address,
        password,
      });
      toast({ title: 'Cadastro recebido!', description: registered.message });
      navigate(verifyEmailPath(registered.email), { state: { codeSent: true } satisfies VerifyEmailState });
    } catch (error) {
      toastError(errorTitles.register, error, 'Tente novamente');
    }
  });

  return (
    <AuthLayout
      title="Criar conta"
      lead="Cadastre-se para comprar ingressos e resgatar cortesias."
      wide
      footer={
        <p>
          Já tem conta? <Link to="/login">Entrar</Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <fieldset className="register-section">
          <legend className="register-section__title">Dados pessoais</legend>
          <TextField label="Nome completo" autoComplete="name" {...form.field('name')} />
          <div className="fields-grid">
            <TextField label="CPF" mask={cpfMask} placeholder="000.000.000-00" {...form.field('cpf')} />
            <TextField
              label="Data de nascimento"
              mask={birthDateMask}
              placeholder="dd/mm/aaaa"
              autoComplete="bday"
              {...form.field('birthDate')}
            />
          </div>
          <PhoneField placeholder="(00) 00000-0000" {...form.field('phone')} />
          <TextField
            label="Endereço completo"
            autoComplete="street-address"
            hint="Rua, número, bairro, cidade e estado"
            {...form.field('address')}
          />
        </fieldset>

        <fieldset className="register-section">
          <legend className="register-section__title">Acesso</legend>
          <div className="fields-grid">
            <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} />
            <TextField label="Confirme o e-mail" type="email" autoComplete="email" {...form.field('emailConfirm')} />
            <NewPasswordFields
              password={form.field('password')}
              confirmation={form.field('confirmPassword')}
              labels={['Senha', 'Confirme a senha']}
            />
          </div>
        </fieldset>

        <Checkbox label="Li e aceito os termos de uso e a política de privacidade" {...form.field('terms')} />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Criar conta
        </Button>
      </form>
    </AuthLayout>
  );
}
