import { useFieldArray } from 'react-hook-form';
import { Button, TextField } from '@ticketing/shared';
import { ListEnd } from './EditList.tsx';
import { nextDay, type EventForm } from './event-form.ts';

/**
 * The event's sessions: start, end and an optional title each, in São Paulo time. One may be added (the next day at
 * the same hours) or removed, keeping at least one; a kept session keeps its id.
 */
export function SessionsField({ form }: { form: EventForm }) {
  // `key`, not `id`: the sessions' own ids are values the form sends back.
  const sessions = useFieldArray({ control: form.control, name: 'sessions', keyName: 'key' });
  const { field } = form;
  return (
    <fieldset className="edit-list" aria-describedby="sessoes-dica">
      <legend className="field__label">Sessões</legend>
      <p id="sessoes-dica" className="field__hint">
        Os dias ou blocos do evento, no horário de Brasília (São Paulo). Cada sessão dura no máximo 24 horas.
      </p>
      {sessions.fields.map((session, index) => (
        <fieldset key={session.key} className="edit-list__row event-sessions__session">
          <legend>Sessão {index + 1}</legend>
          <div className="field-row event-sessions__times">
            <TextField label="Início" type="datetime-local" {...field(`sessions.${index}.startsAt`)} />
            <TextField label="Fim" type="datetime-local" {...field(`sessions.${index}.endsAt`)} />
          </div>
          <div className="event-sessions__name">
            <TextField
              label="Título da sessão (opcional)"
              autoComplete="off"
              maxLength={100}
              placeholder="Ex.: Dia 1"
              {...field(`sessions.${index}.title`)}
            />
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={sessions.fields.length === 1}
              aria-label={`Remover sessão ${index + 1}`}
              onClick={() => sessions.remove(index)}
            >
              Remover
            </Button>
          </div>
        </fieldset>
      ))}
      <ListEnd
        errors={form.formState.errors.sessions}
        label="Adicionar sessão"
        onAdd={() => sessions.append(nextDay(form.getValues('sessions')?.at(-1)))}
      />
    </fieldset>
  );
}
