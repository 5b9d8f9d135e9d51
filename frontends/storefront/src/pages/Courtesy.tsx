import { useEffect, useLayoutEffect, useState } from 'react';
import { useNavigate, useSearchParams } from '@ticketing/shared/router';
import type { UserView } from '@ticketing/proto';
import {
  isApiError,
  pendingCourtesyCode,
  savePendingCourtesyCode,
  takePendingCourtesyCode,
  toast,
  useAuth,
} from '@ticketing/shared';
import { CodeEntry } from '../courtesy/CodeEntry.tsx';
import { CourtesyFrame, CourtesyWaiting } from '../courtesy/CourtesyFrame.tsx';
import { InvalidCode } from '../courtesy/InvalidCode.tsx';
import { useCourtesyLink } from '../courtesy/queries.ts';
import { RedeemForm } from '../courtesy/RedeemForm.tsx';
import { Redeemed } from '../courtesy/Redeemed.tsx';
import { LoadError } from '../ui/LoadError.tsx';

/**
 * /cortesia[?code=]: who is asking (a visitor logs in first, the code waiting in this browser), then the code
 * (a promotional one leads to its event page), then the form, then the confirmation.
 */
export default function Courtesy() {
  const [params] = useSearchParams();
  const code = params.get('code')?.trim().toUpperCase() || null;
  const auth = useAuth();

  if (auth.status === 'loading') return <CourtesyWaiting label="Verificando autenticação..." />;
  if (!code) return auth.status === 'authenticated' ? <ResumeSavedCode /> : <CodeEntry />;
  if (auth.status === 'anonymous') return <LoginFirst code={code} />;
  return <RedeemCode key={code} code={code} user={auth.user} />;
}

/**
 * Back from logging in: the code saved before is taken up again. It is only read here (a render may be thrown
 * away and run again); the page that handles the code removes it.
 */
function ResumeSavedCode() {
  const navigate = useNavigate();
  const saved = pendingCourtesyCode();
  useLayoutEffect(() => {
    if (saved) navigate(`/cortesia?code=${encodeURIComponent(saved)}`, { replace: true });
  }, [saved, navigate]);
  return saved ? <CourtesyWaiting label="Verificando código de cortesia..." /> : <CodeEntry />;
}

function LoginFirst({ code }: { code: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    savePendingCourtesyCode(code);
    toast({ title: 'Login necessário', description: 'Faça login para resgatar sua cortesia', variant: 'destructive' });
    navigate('/login', { replace: true });
  }, [code, navigate]);
  return <CourtesyWaiting label="Redirecionando para login..." />;
}

function RedeemCode({ code, user }: { code: string; user: UserView }) {
  const navigate = useNavigate();
  const link = useCourtesyLink(code);
  const [redeemed, setRedeemed] = useState(false);
  const promotional = link.data && link.data.overridePrice !== null;

  // The code is being handled now: one saved before a login must not bring the visitor back here later.
  useEffect(() => void takePendingCourtesyCode(), []);

  useEffect(() => {
    // A promotional code is not redeemed: it gives its price when buying on the event page.
    if (promotional) navigate(`/event/${link.data!.eventId}?promo=${encodeURIComponent(code)}`, { replace: true });
  }, [promotional, link.data, code, navigate]);

  if (redeemed) return <Redeemed />;
  if (link.isPending || promotional) return <CourtesyWaiting label="Verificando código de cortesia..." />;
  if (link.isError) {
    if (isApiError(link.error, 400, 404)) return <InvalidCode message={link.error.message} />;
    return (
      <CourtesyFrame>
        <h1 className="courtesy__title">Resgate de Cortesia</h1>
        <LoadError title="Não foi possível verificar o código." error={link.error} onRetry={() => link.refetch()} />
      </CourtesyFrame>
    );
  }
  return <RedeemForm link={link.data} user={user} onRedeemed={() => setRedeemed(true)} />;
}
