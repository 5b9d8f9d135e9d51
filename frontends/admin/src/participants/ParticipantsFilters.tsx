import { SelectField, TextField } from '@ticketing/shared';
import type { ParticipantsFilters as Filters } from './participants.ts';

interface ParticipantsFiltersProps {
  filters: Filters;
  onChange(filters: Filters): void;
}

/** The search box and the two filters; the list and the spreadsheet follow them. */
export function ParticipantsFilters({ filters, onChange }: ParticipantsFiltersProps) {
  return (
    <div className="field-row participants-filters" role="search" aria-label="Filtrar participantes">
      <TextField
        label="Buscar"
        placeholder="Nome, e-mail, CPF ou número do pedido"
        type="search"
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        className="participants-filters__search"
        value={filters.q}
        onChange={(event) => onChange({ ...filters, q: event.target.value })}
      />
      {/* Two filters of the same kind, each with its own choices. */}
      <SelectField
        label="Situação"
        value={filters.status}
        onChange={(event) => onChange({ ...filters, status: event.target.value as Filters['status'] })}
      >
        <option value="">Todas</option>
        <option value="valid">Válidos</option>
        <option value="cancelled">Cancelados</option>
      </SelectField>
      <SelectField
        label="Entrada"
        value={filters.checkedIn}
        onChange={(event) => onChange({ ...filters, checkedIn: event.target.value as Filters['checkedIn'] })}
      >
        <option value="">Todos</option>
        <option value="true">Já entraram</option>
        <option value="false">Ainda não entraram</option>
      </SelectField>
    </div>
  );
}
