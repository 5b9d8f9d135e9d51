import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from '@ticketing/shared/router';
import type { MassSendJobView } from '@ticketing/proto';
import { buttonClass, Page } from '@ticketing/shared';
import { CsvGuide } from '../mass-send/CsvGuide.tsx';
import { JobProgress } from '../mass-send/JobProgress.tsx';
import { SendForm } from '../mass-send/SendForm.tsx';
import '../lib/admin.css';
import '../mass-send/mass-send.css';

/** /cortesia-envio-em-massa: one free courtesy link and one invitation e-mail per row of a CSV file. */
export default function MassSend() {
  const queryClient = useQueryClient();
  // The job being followed stays in the address: a reload keeps showing its progress.
  const [params, setParams] = useSearchParams();
  const jobId = params.get('envio');

  function follow(job: MassSendJobView) {
    queryClient.setQueryData(['courtesy', 'mass-send', job.id], job);
    setParams({ envio: job.id }, { replace: true });
  }

  return (
    <Page title="Envio em Massa de Cortesias">
      <p className="admin-lead">
        Cada linha do arquivo recebe por e-mail o seu próprio link de cortesia. Os e-mails saem em segundo plano: você
        pode acompanhar o progresso aqui.
      </p>
      <div className="admin-lead__actions">
        <Link to="/cortesia-admin" className={buttonClass('outline', 'sm')}>
          Voltar para os links de cortesia
        </Link>
      </div>
      <div className="admin-columns mass-send">
        <div className="mass-send__main">
          <SendForm onQueued={follow} />
          {jobId && <JobProgress key={jobId} jobId={jobId} />}
        </div>
        <CsvGuide />
      </div>
    </Page>
  );
}
