import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@ticketing/shared/router';
import type { CourtesyRedemptionsView } from '@ticketing/proto';
import { Button, buttonClass, Page, Pager, queryPath, Skeleton, useFailureToast } from '@ticketing/shared';
import { RedeemedLink } from '../courtesy-redemptions/RedeemedLink.tsx';
import { RedemptionsTable } from '../courtesy-redemptions/RedemptionsTable.tsx';
import { useCsvExport } from '../lib/download.ts';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import '../lib/admin.css';
import '../courtesy-links/courtesy-links.css';
import '../lib/data-table.css';
import '../courtesy-redemptions/courtesy-redemptions.css';

/** /cortesia-admin/:id/resgates: who redeemed a courtesy link and when, a page at a time, and the spreadsheet. */
export default function CourtesyRedemptions() {
  const linkId = useParams().id!;
  const [page, setPage] = useState(1);
  const report = useQuery<CourtesyRedemptionsView>({
    queryKey: ['courtesy-links', linkId, 'redemptions', { page }],
    placeholderData: keepPreviousData,
    // Guests redeem while the page is closed: every visit asks again.
    staleTime: 0,
  });
  useFailureToast(report.error, 'Erro ao carregar resgates');
  const exportCsv = useCsvExport(queryPath(['courtesy-links', linkId, 'redemptions.csv']), 'resgates.csv');

  return (
    <Page title="Resgates do link de cortesia" heading={null}>
      <Link to="/cortesia-admin" className={buttonClass('ghost', 'sm')}>
        ← Voltar para os links de cortesia
      </Link>
      <h1 className="page__title">Resgates do link de cortesia</h1>
      {report.isPending ? (
        <div className="redeemed-link" aria-label="Carregando resgates">
          <Skeleton style={{ width: '60%', height: '1.25rem' }} />
          <Skeleton style={{ height: '6rem' }} />
        </div>
      ) : !report.data ? (
        <LoadFailure
          message="Não foi possível carregar os resgates."
          error={report.error}
          onRetry={() => report.refetch()}
        />
      ) : (
        <>
          <RedeemedLink link={report.data.link} />
          <section aria-labelledby="redemptions-title">
            <h2 id="redemptions-title" className="redemptions__title">
              Quem resgatou
            </h2>
            <div className="admin-lead__actions">
              <Button variant="outline" size="sm" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
                Exportar CSV
              </Button>
            </div>
            {report.data.redemptions.length === 0 ? (
              <p className="list-message">Ninguém resgatou este link ainda.</p>
            ) : (
              <RedemptionsTable redemptions={report.data.redemptions} busy={report.isPlaceholderData} />
            )}
            <Pager page={page} totalPages={report.data.totalPages} onPageChange={setPage} />
          </section>
        </>
      )}
    </Page>
  );
}
