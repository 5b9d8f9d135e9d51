import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatHours, type AdminCertificateView } from '@ticketing/proto';
import { api, Badge, Button, formatDate, TextField, toast, toastError, type BadgeTone } from '@ticketing/shared';
import { eventCertificatesKey } from './queries.ts';

const TONE: Record<AdminCertificateView['status'], BadgeTone> = {
  válido: 'success',
  substituído: 'warning',
  revogado: 'danger',
};

/** A holder's name corrected: the certificate is reissued under a new code and e-mailed again. */
function CorrectName({ eventId, certificate }: { eventId: string; certificate: AdminCertificateView }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const correct = useMutation({
    mutationFn: (holderName: string) =>
      api<AdminCertificateView>(`/events/${eventId}/certificates/${certificate.code}`, {
        method: 'PUT',
        body: { holderName },
      }),
    onSuccess: (reissued) => {
      setName(null);
      void queryClient.invalidateQueries({ queryKey: eventCertificatesKey(eventId) });
      toast({ title: 'Certificado reemitido', description: `Novo código: ${reissued.code}` });
    },
    onError: (error) => toastError('Erro ao corrigir o nome', error),
  });
  if (name === null) {
    return (
      <Button variant="ghost" size="sm" onClick={() => setName(certificate.holderName)}>
        Corrigir nome
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    correct.mutate(name);
  };
  return (
    <form className="certificate-correction" onSubmit={submit}>
      <TextField label="Nome correto" value={name} onChange={(event) => setName(event.target.value)} />
      <Button type="submit" size="sm" loading={correct.isPending}>
        Reemitir
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={() => setName(null)}>
        Cancelar
      </Button>
    </form>
  );
}

/** The certificates issued for an event, each with its status and, while valid, a name correction. */
export function IssuedList({ eventId, certificates }: { eventId: string; certificates: AdminCertificateView[] }) {
  if (certificates.length === 0) return <p className="admin-lead">Nenhum certificado emitido ainda.</p>;
  return (
    <table className="data-table certificate-list">
      <thead>
        <tr>
          <th scope="col">Participante</th>
          <th scope="col">Carga horária</th>
          <th scope="col">Emitido em</th>
          <th scope="col">Código</th>
          <th scope="col">Situação</th>
          <th scope="col">
            <span className="visually-hidden">Ações</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {certificates.map((certificate) => (
          <tr key={certificate.id}>
            <td>
              {certificate.holderName}
              <br />
              <small>{certificate.holderEmail}</small>
            </td>
            <td>{formatHours(certificate.hours)}</td>
            <td>{formatDate(certificate.issuedAt)}</td>
            <td>
              <a href={`/certificados/${certificate.code}`} target="_blank" rel="noreferrer">
                {certificate.code}
              </a>
            </td>
            <td>
              <Badge tone={TONE[certificate.status]}>{certificate.status}</Badge>
            </td>
            <td>{certificate.status === 'válido' && <CorrectName eventId={eventId} certificate={certificate} />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
