import type { UseFieldArrayReturn } from 'react-hook-form';
import type { AdminTicketTypeView } from '@ticketing/proto';
import { Button, TextField } from '@ticketing/shared';
import { listError, typedCapacity, typedTime, type EventForm, type EventFormInput } from './event-form.ts';
import { RemoveButton } from './RemoveButton.tsx';
import { MAX_LOTS, placeName } from './ticket-types.ts';

interface LotsFieldProps {
  form: EventForm;
  typeIndex: number;
  lots: UseFieldArrayReturn<EventFormInput, `ticketTypes.${number}.lots`, 'key'>;
  /** The type's lots as saved, with what each took. */
  stored: AdminTicketTypeView['lots'];
  onAdd(): void;
}

/**
 * A type's lots, in the order they sell: each a price until its date or its quantity sold, whichever comes first.
 * A lot that took tickets stays.
 */
export function LotsField({ form, typeIndex, lots, stored, onAdd }: LotsFieldProps) {
  const { field } = form;
  const problem = listError(form.formState.errors.ticketTypes?.[typeIndex]?.lots);
  return (
    <fieldset className="event-lots">
      <legend className="field__label">Lotes</legend>
      {lots.fields.length === 0 && <p className="field__hint">Sem lotes, o tipo vende sempre ao seu preço.</p>}
      {lots.fields.map((lot, index) => {
        const at = `ticketTypes.${typeIndex}.lots.${index}` as const;
        const position = index + 1;
        const taken = (lot.id && stored.find((candidate) => candidate.id === lot.id)?.taken) || 0;
        return (
          <fieldset key={lot.key} className="event-lots__lot">
            <legend>
              Lote {position} do tipo {typeIndex + 1}
            </legend>
            <div className="field-row event-lots__fields">
              <TextField
                label="Nome"
                autoComplete="off"
                maxLength={60}
                placeholder={placeName(index)}
                {...field(`${at}.name`)}
              />
              <TextField
                label="Preço (R$)"
                inputMode="decimal"
                autoComplete="off"
                placeholder="Ex.: 150,00"
                {...field(`${at}.price`)}
              />
              <TextField
                label="Termina em"
                type="datetime-local"
                {...field(`${at}.endsAt`, { setValueAs: typedTime })}
              />
              <TextField
                label="Quantidade"
                type="number"
                inputMode="numeric"
                min={Math.max(1, taken)}
                step={1}
                {...field(`${at}.quantity`, { setValueAs: typedCapacity })}
              />
            </div>
            <div className="event-types__actions">
              {lot.id && (
                <p className="event-types__taken">
                  Vendidos ou reservados: <span className="numeric">{taken}</span>
                </p>
              )}
              <Button
                type="button"
                variant="ghost"
                size="sm"
                disabled={index === 0}
                aria-label={`Mover lote ${position} para cima`}
                onClick={() => lots.swap(index, index - 1)}
              >
                ↑
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                disabled={index === lots.fields.length - 1}
                aria-label={`Mover lote ${position} para baixo`}
                onClick={() => lots.swap(index, index + 1)}
              >
                ↓
              </Button>
              <RemoveButton
                label={`Remover lote ${position}`}
                refusal={
                  taken > 0 ? 'Este lote já tem ingressos vendidos ou reservados e não pode ser removido' : undefined
                }
                onRemove={() => lots.remove(index)}
              />
            </div>
          </fieldset>
        );
      })}
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      <Button type="button" variant="outline" size="sm" disabled={lots.fields.length >= MAX_LOTS} onClick={onAdd}>
        Adicionar lote
      </Button>
    </fieldset>
  );
}
