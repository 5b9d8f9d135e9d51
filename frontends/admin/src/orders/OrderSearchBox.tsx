import { Checkbox, SearchField } from '@ticketing/shared';

interface OrderSearchBoxProps {
  q: string;
  onChange(q: string): void;
  /** 'Somente empresas': only orders bought for a company. */
  company: boolean;
  onCompanyChange(company: boolean): void;
}

/**
 * One box for every way an order is looked for: its id or number, the buyer's e-mail, CPF or name, the company's CNPJ
 * or razão social; and whether only companies' orders are listed. The events' filters use the same search field with
 * their own words.
 */
export function OrderSearchBox({ q, onChange, company, onCompanyChange }: OrderSearchBoxProps) {
  return (
    <search className="order-search">
      <SearchField
        label="Buscar pedidos"
        placeholder="Número ou id do pedido, e-mail, CPF, nome ou CNPJ"
        hint="Ex.: EF-000123, maria@exemplo.com.br, 123.456.789-09, Maria Souza ou 12.345.678/0001-95"
        value={q}
        onSearch={onChange}
      />
      <Checkbox
        label="Somente empresas"
        checked={company}
        onChange={(event) => onCompanyChange(event.target.checked)}
      />
    </search>
  );
}
