import { useMutation, useQuery } from '@tanstack/react-query';
import { formatHours, type CertificateView } from '@ticketing/proto';
import { ListFailed } from './ListFailed.tsx';
import { Badge, Button, downloadFile, formatDate, SkeletonLines, toastError, type BadgeTone } from '@ticketing/shared';

export const certificatesQueryKey = ['certificates'];

const TONE: Record<CertificateView['status'], BadgeTone> = {
  válido: 'success',
  substituído: 'warning',
  revogado: 'danger',
};

/** 'Meus certificados': the holder's certificates of attendance, newest first, each with its PDF. */
export function CertificatesTab() {
  const certificates = useQuery<CertificateView[]>({ queryKey: certificatesQueryKey });
  const download = useMutation({
    mutationFn: (certificate: CertificateView) =>
      downloadFile(`/certificates/${certificate.code}/pdf`, `certificado-${certificate.code}.pdf`),
    onError: (error) => toastError('Não foi possível baixar o certificado', error),
  });

  if (certificates.isPending) {
    return (
      <ul className="bare-list orders-list" aria-label="Carregando certificados">
        <li className="order-card card">
          <SkeletonLines lines={[{ height: '1.5rem', width: '70%' }, { width: '50%' }]} />
        </li>
      </ul>
    );
  }
  if (certificates.isError) {
    return (
      <ListFailed
        title="Não foi possível carregar seus certificados."
        error={certificates.error}
        retry={() => certificates.refetch()}
      />
    );
  }
  if (certificates.data.length === 0) {
    return (
      <div className="profile-empty">
        <p className="profile-empty__title">Você ainda não tem certificados.</p>
        <p>Depois de um evento com certificado, o seu aparece aqui e chega por e-mail.</p>
      </div>
    );
  }
  return (
    <ul className="bare-list orders-list">
      {certificates.data.map((certificate) => (
        <li key={certificate.id} className="order-card card">
          <div className="order-card__head wrap-row">
            <div>
              <p className="order-card__number">Código {certificate.code}</p>
              <h3 className="order-card__title">{certificate.eventTitle}</h3>
            </div>
            <Badge tone={TONE[certificate.status]}>{certificate.status}</Badge>
          </div>
          <p>
            {formatHours(certificate.hours)} · emitido em {formatDate(certificate.issuedAt)}
          </p>
          {certificate.status === 'válido' && (
            <div className="order-card__actions">
              <Button
                variant="outline"
                size="sm"
                disabled={download.isPending}
                onClick={() => download.mutate(certificate)}
              >
                Baixar PDF
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
