import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { courtesyMessages, MASS_SEND_LIMITS, type MassSendJobView } from '@ticketing/proto';
import { api, Button, isApiError, toast, toastError } from '@ticketing/shared';
import { FilePicker } from './FilePicker.tsx';

/** 202 from POST /api/courtesy/mass-send: the job that sends the invitations in the background. */
interface Queued {
  message: string;
  jobId: string;
  job: MassSendJobView;
}

const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];
const ATTACHMENT_NAME = /\.(pdf|png|jpe?g)$/i;

/** Why a picked file cannot be sent, checked before the upload (the server checks again). */
function csvProblem(file: File): string | undefined {
  if (!/\.csv$/i.test(file.name)) return courtesyMessages.csvRequired;
  if (file.size > MASS_SEND_LIMITS.csvBytes) return courtesyMessages.csvTooLarge;
}
function attachmentProblem(file: File): string | undefined {
  if (!ATTACHMENT_TYPES.includes(file.type) && !ATTACHMENT_NAME.test(file.name)) return courtesyMessages.attachmentType;
  if (file.size > MASS_SEND_LIMITS.attachmentBytes) return courtesyMessages.attachmentTooLarge;
}

/** What the server refused, kept on screen under the form after its toast is gone. */
type Refusal = { kind: 'rows'; message: string; rows: string[] } | { kind: 'duplicate'; message: string };

/** The CSV of guests and the optional attachment, sent as one multipart upload. */
export function SendForm({ onQueued }: { onQueued(job: MassSendJobView): void }) {
  const [csv, setCsv] = useState<File | null>(null);
  const [attachment, setAttachment] = useState<File | null>(null);
  const [csvError, setCsvError] = useState<string>();
  const [attachmentError, setAttachmentError] = useState<string>();
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const send = useMutation({
    mutationFn: ({ csvFile, confirmed }: { csvFile: File; confirmed: boolean }) => {
      const body = new FormData();
      body.append('csvFile', csvFile);
      if (attachment) body.append('attachment', attachment);
      return api<Queued>(`/courtesy/mass-send${confirmed ? '?confirm=1' : ''}`, { method: 'POST', body });
    },
    onMutate: () => setRefusal(null),
    onSuccess: (queued) => {
      toast({
        title: 'Emails enfileirados para envio',
        description: 'Os e-mails de cortesia estão sendo processados e serão enviados em breve.',
      });
      setCsv(null);
      setAttachment(null);
      onQueued(queued.job);
    },
    onError: (error) => {
      toastError('Erro ao enviar e-mails', error);
      if (isApiError(error, 422)) setRefusal({ kind: 'rows', message: error.message, rows: error.errors });
      if (isApiError(error, 409)) setRefusal({ kind: 'duplicate', message: error.message });
    },
  });

  function pickCsv(file: File | null) {
    const problem = file ? csvProblem(file) : undefined;
    setCsv(problem ? null : file);
    setCsvError(problem);
    setRefusal(null);
  }

  function pickAttachment(file: File | null) {
    const problem = file ? attachmentProblem(file) : undefined;
    setAttachment(problem ? null : file);
    setAttachmentError(problem);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!csv) {
      setCsvError(courtesyMessages.csvRequired);
      toast({ title: 'Nenhum arquivo selecionado', description: courtesyMessages.csvRequired, variant: 'destructive' });
      return;
    }
    send.mutate({ csvFile: csv, confirmed: false });
  }

  return (
    <form className="card send-form" onSubmit={submit} noValidate aria-labelledby="send-form-title">
      <h2 id="send-form-title" className="send-form__title">
        Arquivos do envio
      </h2>
      <FilePicker
        label="Arquivo CSV de convidados"
        accept=".csv,text/csv"
        required
        file={csv}
        onPick={pickCsv}
        hint="Um convidado por linha, com as colunas name, email, amount_of_courtesies e event_id."
        error={csvError}
      />
      <FilePicker
        label="Anexo (opcional)"
        accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
        file={attachment}
        onPick={pickAttachment}
        hint="PDF, PNG ou JPEG de até 10 MB, enviado junto com todos os e-mails."
        error={attachmentError}
      />
      <Button type="submit" variant="accent" block loading={send.isPending && !send.variables?.confirmed}>
        Enviar cortesias
      </Button>

      {refusal?.kind === 'rows' && (
        <section className="send-refusal" role="alert" aria-labelledby="send-refusal-title">
          <h3 id="send-refusal-title" className="send-refusal__title">
            {refusal.message}
          </h3>
          {refusal.rows.length > 0 && (
            <ul className="send-refusal__rows">
              {refusal.rows.map((row) => (
                <li key={row}>{row}</li>
              ))}
            </ul>
          )}
          <p className="send-refusal__next">Corrija o arquivo e envie novamente.</p>
        </section>
      )}
      {refusal?.kind === 'duplicate' && csv && (
        <section className="send-refusal" role="alert">
          <p>{refusal.message}</p>
          <Button
            variant="destructive"
            loading={send.isPending && send.variables?.confirmed}
            onClick={() => send.mutate({ csvFile: csv, confirmed: true })}
          >
            Confirmar e enviar novamente
          </Button>
        </section>
      )}
    </form>
  );
}
