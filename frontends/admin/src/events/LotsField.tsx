import type { UseFieldArrayReturn } from 'react-hook-form';
import type { AdminTicketTypeView } from '@ticketing/proto';
import { TextField } from '@ticketing/shared';
import { ListEnd, RowActions } from './EditList.tsx';
import { typedCapacity, typedTime, type EventForm, type EventFormInput } from './event-form.ts';
import { PriceField } from './PriceField.tsx';
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
  return (
    <fieldset className="edit-list event-lots">
      <legend className="field__label">Lotes</legend>
      {lots.fields.length === 0 && <p className="field__hint">Sem lotes, o tipo vende sempre ao seu preço.</p>}
      {lots.fields.map((lot, index) => {
        const at = `ticketTypes.${typeIndex}.lots.${index}` as const;
        const position = index + 1;
        const taken = (lot.id && stored.find((candidate) => candidate.id === lot.id)?.taken) || 0;
        return (
          <fieldset key={lot.key} className="edit-list__row event-lots__lot">
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
              <PriceField {...field(`${at}.price`)} />
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
            <RowActions
              name={`lote ${position}`}
              index={index}
              count={lots.fields.length}
              taken={lot.id ? taken : undefined}
              refusal={
                taken > 0 ? 'Este lote já tem ingressos vendidos ou reservados e não pode ser removido' : undefined
              }
              onMove={(to) => lots.swap(index, to)}
              onRemove={() => lots.remove(index)}
            />
          </fieldset>
        );
      })}
      <ListEnd
        errors={form.formState.errors.ticketTypes?.[typeIndex]?.lots}
        label="Adicionar lote"
        full={lots.fields.length >= MAX_LOTS}
        onAdd={onAdd}
      />
    </fieldset>
  );
}
