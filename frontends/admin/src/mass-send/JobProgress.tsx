import { useQuery } from '@tanstack/react-query';
import type { MassSendJobView } from '@ticketing/proto';
import { Button, Spinner, useFailureToast } from '@ticketing/shared';
import { Progress } from '@ticketing/shared/primitives';

/** How often the progress is asked for while the invitations go out. */
const POLL_MS = 1000;

function statusText(job: MassSendJobView) {
  if (job.status === 'queued') return 'Na fila: o envio começa em instantes.';
  if (job.status === 'running') return 'Enviando convites...';
  return job.failed > 0
    ? `Envio concluído: ${job.sent} enviados, ${job.failed} com falha.`
    : `Envio concluído: ${job.sent} convites enviados.`;
}

/** The invitations of one mass send: a progress bar fed by polling until the job is done, then its failures. */
export function JobProgress({ jobId }: { jobId: string }) {
  const job = useQuery<MassSendJobView>({
    queryKey: ['courtesy', 'mass-send', jobId],
    refetchInterval: (query) =>
      query.state.status === 'error' || query.state.data?.status === 'done' ? false : POLL_MS,
  });
  useFailureToast(job.error, 'Erro');

  return (
    <section className="card job" aria-labelledby="job-title">
      <h2 id="job-title" className="job__title">
        Progresso do envio
      </h2>
      {job.isPending && <Spinner label="Carregando progresso..." />}
      {job.isError && (
        <div role="alert">
          <p>{job.error.message}</p>
          <Button variant="outline" size="sm" onClick={() => job.refetch()}>
            Tentar novamente
          </Button>
        </div>
      )}
      {job.data && <JobState job={job.data} />}
    </section>
  );
}

function JobState({ job }: { job: MassSendJobView }) {
  const processed = job.sent + job.failed;
  const percent = job.total > 0 ? Math.round((processed / job.total) * 100) : 0;
  return (
    <>
      <Progress value={processed} max={Math.max(job.total, 1)} label="Progresso do envio" />
      <p className="job__numbers numeric">
        {processed} de {job.total} convites processados · {percent}%
      </p>
      <p className="job__status" aria-live="polite">
        {statusText(job)}
      </p>
      {job.failures.length > 0 && (
        <>
          <h3 className="job__failures-title">Convites que não foram enviados</h3>
          <ul className="job__failures">
            {job.failures.map((failure) => (
              <li key={`${failure.line}-${failure.email}`}>
                Linha {failure.line} · {failure.email}: {failure.error}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
