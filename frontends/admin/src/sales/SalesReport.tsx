import type { SalesView } from '@ticketing/proto';
import { formatDateTime, Skeleton } from '@ticketing/shared';
import { CouponSalesTable } from './CouponSalesTable.tsx';
import { EventSalesTable } from './EventSalesTable.tsx';
import { SalesBreakdown } from './SalesBreakdown.tsx';
import { SalesChart } from './SalesChart.tsx';
import { SalesTotals } from './SalesTotals.tsx';
import { TypeSalesTable } from './TypeSalesTable.tsx';

const orderCount = (sales: SalesView) => Object.values(sales.orders.byStatus).reduce((sum, count) => sum + count, 0);

/** The figures of one event or of every event; with no order at all there is nothing to add up yet. */
export function SalesReport({ sales }: { sales: SalesView }) {
  const { event } = sales;
  // Figures read from a report that predates coupons have none.
  const coupons = sales.perCoupon ?? [];
  return (
    <div className="sales-report">
      <h2 className="sales-report__title">
        {event ? (event.title ?? 'Evento sem pedidos') : 'Todos os eventos'}
        {event?.date && (
          <span className="sales-report__date numeric">
            {' · '}
            <time dateTime={event.date}>{formatDateTime(event.date)}</time>
          </span>
        )}
      </h2>
      {orderCount(sales) === 0 ? (
        <p className="list-message">{event ? 'Nenhum pedido para este evento ainda.' : 'Nenhum pedido feito ainda.'}</p>
      ) : (
        <>
          <SalesTotals sales={sales} />
          <section className="card sales-section" aria-labelledby="sales-per-day">
            <h2 id="sales-per-day" className="sales-section__title">
              Vendas por dia
            </h2>
            <SalesChart days={sales.perDay} />
          </section>
          <SalesBreakdown sales={sales} />
          {event && sales.perType.length > 0 && (
            <section className="sales-section" aria-labelledby="sales-per-type">
              <h2 id="sales-per-type" className="sales-section__title">
                Por tipo de ingresso
              </h2>
              <TypeSalesTable types={sales.perType} />
            </section>
          )}
          {coupons.length > 0 && (
            <section className="sales-section" aria-labelledby="sales-per-coupon">
              <h2 id="sales-per-coupon" className="sales-section__title">
                Por cupom
              </h2>
              <CouponSalesTable coupons={coupons} />
            </section>
          )}
          {!event && sales.perEvent.length > 0 && (
            <section className="sales-section" aria-labelledby="sales-per-event">
              <h2 id="sales-per-event" className="sales-section__title">
                Por evento
              </h2>
              <EventSalesTable events={sales.perEvent} />
            </section>
          )}
        </>
      )}
    </div>
  );
}

/** The report's shape while its figures load. */
export function SalesReportSkeleton() {
  return (
    <div className="sales-totals" aria-label="Carregando vendas">
      {[0, 1, 2, 3].map((card) => (
        <div key={card} className="card sales-totals__card">
          <Skeleton />
          <Skeleton />
        </div>
      ))}
    </div>
  );
}
