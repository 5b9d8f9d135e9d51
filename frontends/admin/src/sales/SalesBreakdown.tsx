import type { ReactNode } from 'react';
import { ORDER_STATUSES, SALES_METHODS, type SalesView } from '@ticketing/proto';
import { Badge, paymentLabel, statusOf } from '@ticketing/shared';
import { Progress } from '@ticketing/shared/primitives';

function Counts({ title, rows }: { title: string; rows: { label: ReactNode; count: number }[] }) {
  return (
    <section className="card sales-counts" aria-label={title}>
      <h2 className="sales-section__title">{title}</h2>
      <dl className="sales-counts__list">
        {rows.map(({ label, count }, index) => (
          <div key={index} className="ends-row sales-counts__row">
            <dt>{label}</dt>
            <dd className="numeric">{count}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Who came in, once the event started: 'Entradas: 12 de 40'. */
function CheckIns({ sales }: { sales: SalesView }) {
  const { eventStarted, checkedIn, sold } = sales.checkIns;
  return (
    <section className="card sales-counts" aria-label="Entradas">
      <h2 className="sales-section__title">Entradas</h2>
      {eventStarted ? (
        <>
          <p className="sales-checkins__count numeric">
            Entradas: {checkedIn} de {sold}
          </p>
          <Progress value={checkedIn} max={sold} label="Entradas registradas" />
          {!sales.event && <p className="sales-counts__note">Somente eventos que já começaram.</p>}
        </>
      ) : (
        <p className="sales-counts__note">
          {sales.event ? 'O evento ainda não começou.' : 'Nenhum evento começou ainda.'} As entradas aparecem aqui a
          partir do início.
        </p>
      )}
    </section>
  );
}

/** Orders by status and by how they were paid, tickets bought and given, and the door. */
export function SalesBreakdown({ sales }: { sales: SalesView }) {
  return (
    <div className="sales-breakdown">
      <Counts
        title="Pedidos por situação"
        rows={ORDER_STATUSES.map((status) => {
          const badge = statusOf(status);
          return { label: <Badge tone={badge.tone}>{badge.label}</Badge>, count: sales.orders.byStatus[status] };
        })}
      />
      <Counts
        title="Pedidos pagos por forma de pagamento"
        rows={SALES_METHODS.map((method) => ({ label: paymentLabel(method), count: sales.orders.byMethod[method] }))}
      />
      <Counts
        title="Ingressos"
        rows={[
          { label: 'Pagos', count: sales.tickets.paid },
          { label: 'Cortesias', count: sales.tickets.courtesy },
        ]}
      />
      <CheckIns sales={sales} />
    </div>
  );
}
