import { formatHours, type PublicCertificateView } from '@ticketing/proto';
import { formatDate } from '@ticketing/shared';

/** The days the sessions attended ran: one day, or the first and the last. */
function dates(sessions: PublicCertificateView['sessions']): string {
  const days = [...new Set(sessions.map((session) => formatDate(session.startsAt)))];
  return days.length > 1 ? `${days[0]} a ${days.at(-1)}` : (days[0] ?? '');
}

/** The status's look: the label is pt-BR, the class plain ASCII. */
const STATUS_CLASS: Record<PublicCertificateView['status'], string> = {
  válido: 'valid',
  substituído: 'replaced',
  revogado: 'revoked',
};

const STATUS_NOTE: Record<PublicCertificateView['status'], string> = {
  válido: 'Este certificado é autêntico e está válido.',
  substituído: 'Este certificado foi substituído por uma versão corrigida e não vale mais.',
  revogado: 'Este certificado foi revogado e não vale mais.',
};

/** What the check of a code shows: who, what, when, how many hours, and whether it stands. */
export function CertificateFacts({ certificate }: { certificate: PublicCertificateView }) {
  return (
    <>
      <p className={`certificate-check__status certificate-check__status--${STATUS_CLASS[certificate.status]}`}>
        {certificate.status}
      </p>
      <dl className="certificate-check__facts">
        <dt>Participante</dt>
        <dd>{certificate.holderName}</dd>
        <dt>Evento</dt>
        <dd>{certificate.eventTitle}</dd>
        <dt>Local</dt>
        <dd>{certificate.eventLocation}</dd>
        <dt>Datas</dt>
        <dd>{dates(certificate.sessions)}</dd>
        <dt>Carga horária</dt>
        <dd>{formatHours(certificate.hours)}</dd>
        <dt>Sessões</dt>
        <dd>{certificate.sessions.map((session) => session.label).join('; ')}</dd>
        <dt>Emitido em</dt>
        <dd>{formatDate(certificate.issuedAt)}</dd>
        <dt>Código</dt>
        <dd>{certificate.code}</dd>
      </dl>
      <p className="certificate-check__note">{STATUS_NOTE[certificate.status]}</p>
    </>
  );
}
