import { useParams } from '@ticketing/shared/router';
import { isApiError, Page, Skeleton } from '@ticketing/shared';
import { CertificateFacts } from '../certificates/CertificateFacts.tsx';
import { useCertificate } from '../certificates/queries.ts';
import { LoadError } from '../ui/LoadError.tsx';
import { EmptyState } from '../ui/StatusMessage.tsx';
import '../certificates/certificate.css';

/** /certificados/:code: anyone holding a certificate's code (or its QR code) checks it here, signed in or not. */
export default function Certificate() {
  const { code = '' } = useParams();
  const certificate = useCertificate(code);

  if (certificate.isError && isApiError(certificate.error, 404)) {
    return (
      <Page title="Certificado não encontrado" className="certificate-check">
        <EmptyState>Confira o código: nenhum certificado emitido por nós tem este código.</EmptyState>
      </Page>
    );
  }
  return (
    <Page title="Verificação de certificado" className="certificate-check">
      {certificate.isSuccess ? (
        <CertificateFacts certificate={certificate.data} />
      ) : certificate.isError ? (
        <LoadError
          title="Não foi possível verificar o certificado."
          error={certificate.error}
          onRetry={() => certificate.refetch()}
        />
      ) : (
        <Skeleton />
      )}
    </Page>
  );
}
