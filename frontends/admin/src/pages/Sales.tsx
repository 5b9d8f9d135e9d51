import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from '@ticketing/shared/router';
import type { SalesView } from '@ticketing/proto';
import { Page, useFailureToast } from '@ticketing/shared';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { EventPicker } from '../sales/EventPicker.tsx';
import { salesKey } from '../sales/queries.ts';
import { SalesReport, SalesReportSkeleton } from '../sales/SalesReport.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import '../lib/admin.css';
import '../sales/sales.css';

/** /admin/vendas: the figures of every event, or of the one in the address (`?eventId=`). */
export default function Sales() {
  const [params, setParams] = useSearchParams();
  const eventId = params.get('eventId') ?? '';
  // Every event's figures list the events to pick from; with none picked they are the figures shown. Buyers keep
  // buying meanwhile, so the figures are read again each time the page opens.
  const overall = useQuery<SalesView>({ queryKey: salesKey(''), staleTime: 0 });
  const sales = useQuery<SalesView>({ queryKey: salesKey(eventId), staleTime: 0 });
  useFailureToast(sales.error, 'Erro ao carregar vendas');
  const title = sales.data?.event?.title;

  return (
    <Page title={title ? `Vendas · ${title}` : 'Vendas'} heading="Vendas">
      <BackOfficeNav />
      <div className="wrap-row sales-top">
        <p className="admin-lead">Receita, pedidos, ingressos e entradas de todos os eventos ou de um só.</p>
        <EventPicker
          eventId={eventId}
          overall={overall.data}
          shown={sales.data}
          onChange={(id) => setParams(id ? { eventId: id } : {})}
        />
      </div>
      {sales.isPending ? (
        <SalesReportSkeleton />
      ) : !sales.data ? (
        <LoadFailure message="Não foi possível carregar as vendas." onRetry={() => sales.refetch()} />
      ) : (
        <SalesReport sales={sales.data} />
      )}
    </Page>
  );
}
