import type { SalesView } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared';

/** The money: what buyers paid, what the provider kept, what is left, what went back and what coupons took off. */
export function SalesTotals({ sales }: { sales: SalesView }) {
  const totals = [
    { label: 'Receita bruta', value: sales.gross, note: 'Pedidos pagos' },
    { label: 'Taxas', value: sales.fee, note: 'Retidas pelo meio de pagamento' },
    { label: 'Receita líquida', value: sales.net, note: 'Bruta menos as taxas' },
    { label: 'Reembolsado', value: sales.refunded, note: 'Devolvido aos compradores' },
    { label: 'Descontos', value: sales.discounts, note: 'Cupons nos pedidos pagos, já fora da bruta' },
  ];
  return (
    <section aria-label="Receita">
      <dl className="sales-totals">
        {totals.map(({ label, value, note }) => (
          <div key={label} className="card sales-totals__card">
            <dt>{label}</dt>
            <dd className="sales-totals__value numeric">{formatBRL(value)}</dd>
            <dd className="sales-totals__note">{note}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
