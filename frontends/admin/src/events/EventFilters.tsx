import { useEffect, useState } from 'react';
import { EVENT_STATUSES, type EventStatus } from '@ticketing/proto';
import { SelectField, TextField, useDebounced } from '@ticketing/shared';
import { STATUS_BADGES } from './status.ts';

export interface EventFilter {
  q: string;
  status: EventStatus | '';
}

/** The search waits for the typing to pause before asking the server. */
const TYPING_PAUSE_MS = 300;

/** Search by title or place, and the status filter; each change asks for the first page again. */
export function EventFilters({ filter, onChange }: { filter: EventFilter; onChange(filter: EventFilter): void }) {
  const [typed, setTyped] = useState(filter.q);
  const settled = useDebounced(typed.trim(), TYPING_PAUSE_MS);
  useEffect(() => {
    if (settled !== filter.q) onChange({ ...filter, q: settled });
  }, [settled, filter, onChange]);

  return (
    <search className="event-filters">
      <TextField
        label="Buscar"
        type="search"
        placeholder="Título ou local"
        maxLength={100}
        autoComplete="off"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
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
