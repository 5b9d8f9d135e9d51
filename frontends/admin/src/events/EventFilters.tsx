import { EVENT_STATUSES, type EventStatus } from '@ticketing/proto';
import { SearchField, SelectField } from '@ticketing/shared';
import { STATUS_BADGES } from './status.ts';

export interface EventFilter {
  q: string;
  status: EventStatus | '';
}

/** Search by title or place, and the status filter; each change asks for the first page again. */
export function EventFilters({ filter, onChange }: { filter: EventFilter; onChange(filter: EventFilter): void }) {
  return (
    <search className="field-row event-filters">
      <SearchField
        label="Buscar"
        placeholder="Título ou local"
        value={filter.q}
        onSearch={(q) => onChange({ ...filter, q })}
      />
      <SelectField
        label="Situação"
        value={filter.status}
        onChange={(event) => onChange({ ...filter, status: event.target.value as EventFilter['status'] })}
      >
        <option value="">Todas</option>
        {EVENT_STATUSES.map((status) => (
          <option key={status} value={status}>
            {STATUS_BADGES[status].label}
          </option>
        ))}
      </SelectField>
    </search>
  );
}
