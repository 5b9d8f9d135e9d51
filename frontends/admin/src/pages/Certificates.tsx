import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@ticketing/shared/router';
import type { AdminCertificateView, CertificateSettingsView, IssueCertificatesAnswer } from '@ticketing/proto';
import { api, Button, buttonClass, formatDateTime, Page, Skeleton, toast, toastError } from '@ticketing/shared';
import { IssuedList } from '../certificates/IssuedList.tsx';
import { certificateSettingsKey, eventCertificatesKey } from '../certificates/queries.ts';
import { SettingsForm } from '../certificates/SettingsForm.tsx';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import '../lib/admin.css';
import '../lib/data-table.css';
import '../certificates/certificates.css';

const issuedInWords = ({ issued, skipped }: IssueCertificatesAnswer) =>
  `${issued === 1 ? '1 certificado emitido' : `${issued} certificados emitidos`}; ` +
  `${skipped === 1 ? '1 participante' : `${skipped} participantes`} sem a frequência mínima.`;

/**
 * /admin/eventos/:id/certificados: the event's certificate settings, 'Emitir certificados' once its last session
 * ended, and the certificates issued, with name corrections.
 */
export default function Certificates() {
  const eventId = useParams().id!;
  const queryClient = useQueryClient();
  const settings = useQuery<CertificateSettingsView>({ queryKey: certificateSettingsKey(eventId) });
  const certificates = useQuery<AdminCertificateView[]>({ queryKey: eventCertificatesKey(eventId) });
  const release = useMutation({
    mutationFn: () => api<IssueCertificatesAnswer>(`/events/${eventId}/certificates`, { method: 'POST' }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: eventCertificatesKey(eventId) });
      toast({ title: 'Certificados emitidos', description: issuedInWords(answer) });
    },
    onError: (error) => toastError('Erro ao emitir certificados', error),
  });
  const title = settings.data?.eventTitle ?? 'Evento';

  return (
    <Page title={`Certificados · ${title}`} heading={null}>
      <BackOfficeNav />
      <Link to={`/admin/eventos/${eventId}`} className={buttonClass('ghost', 'sm')}>
        ← Voltar para o evento
      </Link>
      <h1 className="page__title">Certificados</h1>
      {settings.isError ? (
        <LoadFailure
          message="Não foi possível carregar as configurações do certificado."
          onRetry={() => settings.refetch()}
        />
      ) : !settings.data ? (
        <Skeleton style={{ height: '20rem' }} />
      ) : (
        <>
          <p className="admin-lead">
            <strong>{settings.data.eventTitle}</strong> · última sessão termina em{' '}
            {formatDateTime(settings.data.endsAt)}
          </p>
          <SettingsForm key={JSON.stringify(settings.data)} settings={settings.data} />
          <div className="certificate-release">
            <Button loading={release.isPending} disabled={!settings.data.enabled} onClick={() => release.mutate()}>
              Emitir certificados
            </Button>
            {!settings.data.enabled && <span>Habilite os certificados para emiti-los.</span>}
          </div>
        </>
      )}
      <h2>Certificados emitidos</h2>
      {certificates.isError ? (
        <LoadFailure message="Não foi possível carregar os certificados." onRetry={() => certificates.refetch()} />
      ) : certificates.data ? (
        <IssuedList eventId={eventId} certificates={certificates.data} />
      ) : (
        <Skeleton style={{ height: '8rem' }} />
      )}
    </Page>
  );
}
