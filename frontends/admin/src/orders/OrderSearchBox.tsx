import { SearchField } from '@ticketing/shared';

/**
 * One box for every way an order is looked for: its id or number, the buyer's e-mail, CPF or name. The events'
 * filters use the same search field with their own words.
 */
export function OrderSearchBox({ q, onChange }: { q: string; onChange(q: string): void }) {
  return (
    <search className="order-search">
      <SearchField
        label="Buscar pedidos"
        placeholder="Número ou id do pedido, e-mail, CPF ou nome"
        hint="Ex.: EF-000123, maria@exemplo.com.br, 123.456.789-09 ou Maria Souza"
        value={q}
        onSearch={onChange}
      />
    </search>
  );
}
