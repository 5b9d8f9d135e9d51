import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from '@ticketing/shared/router';
import { verifyCodeSchema } from '@ticketing/proto';
import {
  Button,
  buttonClass,
  errorTitles,
  startSession,
  TextField,
  toast,
  toastError,
  type Mask,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { AuthLayout } from '../auth/AuthLayout.tsx';
import { destinationAfterLogin, type VerifyEmailState } from '../auth/after-login.ts';
import { ResendButton } from '../auth/ResendButton.tsx';
import { postAnonymously } from '../auth/post-anonymously.ts';

const TITLE = 'Verificar e-mail';
const codeSchema = verifyCodeSchema.pick({ code: true });
/** Six digits, nothing else. */
const codeMask: Mask = { maxLength: 6, apply: (value) => value.replace(/\D/g, '').slice(0, 6) };

export default function VerifyEmail() {
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const state = useLocation().state as VerifyEmailState | null;

  if (!email) {
    return (
      <AuthLayout title={TITLE}>
        <p className="auth__message" role="alert">
          E-mail não encontrado. Por favor, registre-se novamente.
        </p>
        <Link to="/register" className={buttonClass('primary', 'lg', true)}>
          Criar conta
        </Link>
      </AuthLayout>
    );
  }
  return <VerifyCodeForm email={email} codeSent={state?.codeSent === true} />;
}

function VerifyCodeForm({ email, codeSent }: { email: string; codeSent: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useZodForm(codeSchema, { defaultValues: { code: '' } });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      const verified = await postAnonymously<{ token: string; message: string }>('/auth/verify-code', { email, code });
      await startSession(queryClient, verified.token);
      toast({ title: verified.message });
      navigate(destinationAfterLogin(), { replace: true });
    } catch (error) {
      toastError(errorTitles.generic, error);
    }
  });

  const resend = async () => {
    const sent = await postAnonymously<{ message: string }>('/auth/resend-code', { email });
    return sent.message;
  };

  return (
    <AuthLayout
      title={TITLE}
      lead={
        <>
          Digite o código de 6 dígitos que enviamos para <strong className="auth__email">{email}</strong>.
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Código de verificação"
          className="verify-code-field"
          mask={codeMask}
          autoComplete="one-time-code"
          placeholder="000000"
          autoFocus
          {...form.field('code')}
        />
        <Button type="submit" block size="lg" loading={isSubmitting}>
          Verificar
        </Button>
      </form>
      <div className="auth__resend">
        <p>Não recebeu? Confira a caixa de spam ou peça outro código.</p>
        <ResendButton send={resend} errorTitle={errorTitles.generic} startLocked={codeSent} block />
      </div>
    </AuthLayout>
  );
}
