import { useEffect, useState } from 'react';
import { TextField, useDebounced } from '@ticketing/shared';

/** The search waits for the typing to pause before asking the server. */
const TYPING_PAUSE_MS = 300;

/** One box for every way an order is looked for: its id or number, the buyer's e-mail, CPF or name. */
export function OrderSearchBox({ q, onChange }: { q: string; onChange(q: string): void }) {
  const [typed, setTyped] = useState(q);
  const settled = useDebounced(typed.trim(), TYPING_PAUSE_MS);
  useEffect(() => {
    if (settled !== q) onChange(settled);
  }, [settled, q, onChange]);

  return (
    <search className="order-search">
      <TextField
        label="Buscar pedidos"
        type="search"
        placeholder="Número ou id do pedido, e-mail, CPF ou nome"
        hint="Ex.: EF-000123, maria@exemplo.com.br, 123.456.789-09 ou Maria Souza"
        maxLength={100}
        autoComplete="off"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
    </search>
  );
}
