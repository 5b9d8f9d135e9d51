import { fromCents, toCents, type SalesDay } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared';

/** Horizontal room per day, and the bar's share of it, in pixels. */
const STEP = 36;
const BAR = 24;
/** Room for the bars, the count above each and the date below. */
const PLOT = 160;
const TOP = 20;
const BOTTOM = 24;
/** At most this many dates under the bars; the others stay in the table. */
const MAX_DATE_LABELS = 12;

/** "2026-03-15" (a day in Brasília, as the API sends it) → "15/03" or "15/03/2026". */
const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
const fullDate = (date: string) => `${dayMonth(date)}/${date.slice(0, 4)}`;
const ordersText = (orders: number) => (orders === 1 ? '1 pedido' : `${orders} pedidos`);

/**
 * Bought tickets per day of payment, as bars as tall as the day's revenue, the count of orders above each. The
 * drawing is for the eye; screen readers read the same figures from the table under it.
 */
export function SalesChart({ days }: { days: SalesDay[] }) {
  if (days.length === 0) return <p className="sales-counts__note">Nenhuma venda paga ainda.</p>;
  const highest = Math.max(...days.map((day) => toCents(day.gross)), 1);
  const width = days.length * STEP;
  const labelEvery = Math.ceil(days.length / MAX_DATE_LABELS);

  return (
    <figure className="sales-chart">
      <div className="sales-chart__scroll">
        <svg
          className="sales-chart__svg"
          width={width}
          height={TOP + PLOT + BOTTOM}
          viewBox={`0 0 ${width} ${TOP + PLOT + BOTTOM}`}
          aria-hidden="true"
          focusable="false"
        >
          <line className="sales-chart__axis" x1={0} x2={width} y1={TOP + PLOT} y2={TOP + PLOT} />
          {days.map((day, index) => {
            const height = Math.max(2, Math.round((toCents(day.gross) / highest) * PLOT));
            const x = index * STEP + (STEP - BAR) / 2;
            const middle = index * STEP + STEP / 2;
            return (
              <g key={day.date}>
                <title>{`${fullDate(day.date)}: ${ordersText(day.orders)}, ${formatBRL(day.gross)}`}</title>
                <rect className="sales-chart__bar" x={x} y={TOP + PLOT - height} width={BAR} height={height} rx={3} />
                <text className="sales-chart__count" x={middle} y={TOP + PLOT - height - 6} textAnchor="middle">
                  {day.orders}
                </text>
                {index % labelEvery === 0 && (
                  <text className="sales-chart__date" x={middle} y={TOP + PLOT + 16} textAnchor="middle">
                    {dayMonth(day.date)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="sales-counts__note">
        Altura da barra: receita bruta do dia (maior dia: {formatBRL(fromCents(highest))}); número acima: pedidos pagos.
      </figcaption>
      <table className="visually-hidden">
        <caption>Vendas por dia</caption>
        <thead>
          <tr>
            <th scope="col">Dia</th>
            <th scope="col">Pedidos pagos</th>
            <th scope="col">Receita bruta</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{fullDate(day.date)}</th>
              <td>{day.orders}</td>
              <td>{formatBRL(day.gross)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
