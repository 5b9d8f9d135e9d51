import { SelectField, TextField } from '@ticketing/shared';
import type { ParticipantsFilters as Filters, ParticipantsSession } from './participants.ts';

/** The two filters, each a choice among fixed values ('' is every one). */
const CHOICES: readonly { name: 'status' | 'checkedIn'; label: string; options: Record<string, string> }[] = [
  { name: 'status', label: 'Situação', options: { '': 'Todas', valid: 'Válidos', cancelled: 'Cancelados' } },
  { name: 'checkedIn', label: 'Entrada', options: { '': 'Todos', true: 'Já entraram', false: 'Ainda não entraram' } },
];

interface ParticipantsFiltersProps {
  filters: Filters;
  /** The event's sessions: with several, 'Entrada' may be about one of them. */
  sessions: readonly ParticipantsSession[];
  onChange(filters: Filters): void;
}

/** The search box and the filters; the list and the spreadsheet follow them. */
export function ParticipantsFilters({ filters, sessions, onChange }: ParticipantsFiltersProps) {
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
      {CHOICES.map(({ name, label, options }) => (
        <SelectField
          key={name}
          label={label}
          value={filters[name]}
          onChange={(event) => onChange({ ...filters, [name]: event.target.value })}
        >
          {Object.entries(options).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </SelectField>
      ))}
      {sessions.length > 1 && (
        <SelectField
          label="Sessão da entrada"
          value={filters.sessionId}
          onChange={(event) => onChange({ ...filters, sessionId: event.target.value })}
        >
          <option value="">Qualquer sessão</option>
          {sessions.map((session) => (
            <option key={session.id} value={session.id}>
              {session.label}
            </option>
          ))}
        </SelectField>
      )}
    </div>
  );
}
