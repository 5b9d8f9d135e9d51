import { useFieldArray } from 'react-hook-form';
import type { AdminTicketTypeView } from '@ticketing/proto';
import { Button, Checkbox, TextField } from '@ticketing/shared';
import { ListEnd, RowActions } from './EditList.tsx';
import { typedCapacity, typedTime, type EventForm } from './event-form.ts';
import { LotsField } from './LotsField.tsx';
import { PriceField } from './PriceField.tsx';
import { firstPrice, MAX_TYPES, NEW_LOT, NEW_TICKET_TYPE, openedTypes } from './ticket-types.ts';

/**
 * The prices the admin does not type, set before the form is checked: a type with lots sells at its first lot's
 * price, and the event's price, required beside its types, is its first type's (as the catalog keeps it).
 */
export function settlePrices(form: EventForm) {
  const types = form.getValues('ticketTypes');
  if (!types?.length) return;
  for (const [index, type] of types.entries()) {
    if (type.lots?.length) form.setValue(`ticketTypes.${index}.price`, firstPrice(type));
  }
  form.setValue('price', firstPrice(types[0]!));
}

/**
 * What the event sells. A plain event sells one 'Ingresso' at the price above the form and shows only the button
 * that opens the list; once opened, each type has its name, price, capacity, visibility, document check, sale window
 * and lots, in the order buyers see them. What a type or lot already sold or holds is shown, and keeps it.
 */
export function TicketTypesField({ form, known }: { form: EventForm; known: readonly AdminTicketTypeView[] }) {
  // `key`, not `id`: the types' own ids are values the form sends back.
  const types = useFieldArray({ control: form.control, name: 'ticketTypes', keyName: 'key' });
  if (types.fields.length === 0) {
    return (
      <div className="edit-list event-types--plain">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => types.replace(openedTypes(known, form.getValues('price')))}
        >
          Adicionar tipo de ingresso
        </Button>
        <p className="field__hint">Para preços diferentes (estudante, profissional), lotes ou ingressos ocultos.</p>
      </div>
    );
  }
  return (
    <fieldset className="edit-list" aria-describedby="tipos-dica">
      <legend className="field__label">Tipos de ingresso</legend>
      <p id="tipos-dica" className="field__hint">
        Na ordem em que o comprador os vê. Os lotes de um tipo vendem um após o outro: cada lote termina na data ou ao
        vender sua quantidade, o que vier primeiro; só o último pode ficar sem fim. Horários de Brasília (São Paulo).
      </p>
      {types.fields.map((type, index) => {
        const stored = type.id ? known.find((candidate) => candidate.id === type.id) : undefined;
        return (
          <TicketTypeFields
            key={type.key}
            form={form}
            index={index}
            stored={stored}
            count={types.fields.length}
            onMove={(to) => types.swap(index, to)}
            onRemove={() => types.remove(index)}
          />
        );
      })}
      <ListEnd
        errors={form.formState.errors.ticketTypes}
        label="Adicionar tipo de ingresso"
        full={types.fields.length >= MAX_TYPES}
        onAdd={() => types.append(NEW_TICKET_TYPE)}
      />
    </fieldset>
  );
}

interface TicketTypeFieldsProps {
  form: EventForm;
  index: number;
  /** The type as saved, with what it took; undefined for a new one. */
  stored: AdminTicketTypeView | undefined;
  count: number;
  onMove(to: number): void;
  onRemove(): void;
}

function TicketTypeFields({ form, index, stored, count, onMove, onRemove }: TicketTypeFieldsProps) {
  const { field } = form;
  const at = `ticketTypes.${index}` as const;
  const lots = useFieldArray({ control: form.control, name: `${at}.lots`, keyName: 'key' });
  const position = index + 1;
  const taken = stored?.taken ?? 0;
  return (
    <fieldset className="edit-list__row event-types__type">
      <legend>Tipo de ingresso {position}</legend>
      <div className="field-row event-types__fields">
        <TextField
          label="Nome"
          autoComplete="off"
          maxLength={60}
          placeholder="Ex.: Estudante"
          {...field(`${at}.name`)}
        />
        {lots.fields.length === 0 && <PriceField {...field(`${at}.price`)} />}
        <TextField
          label="Capacidade do tipo"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="Em branco, só a do evento."
          {...field(`${at}.capacity`, { setValueAs: typedCapacity })}
        />
      </div>
      <div className="field-row event-types__fields">
        <TextField
          label="Início das vendas"
          type="datetime-local"
          hint="Em branco, desde a publicação."
          {...field(`${at}.salesStartAt`, { setValueAs: typedTime })}
        />
        <TextField
          label="Fim das vendas"
          type="datetime-local"
          hint="Em branco, até o evento."
          {...field(`${at}.salesEndAt`, { setValueAs: typedTime })}
        />
      </div>
      <Checkbox label="Oculto (só por link promocional)" {...field(`${at}.hidden`)} />
      <Checkbox label="Exige documento na entrada" {...field(`${at}.requiresDocument`)} />
      <LotsField
        form={form}
        typeIndex={index}
        lots={lots}
        stored={stored?.lots ?? []}
        onAdd={() =>
          lots.append({ ...NEW_LOT, price: lots.fields.length === 0 ? String(form.getValues(`${at}.price`)) : '' })
        }
      />
      <RowActions
        name={`tipo de ingresso ${position}`}
        index={index}
        count={count}
        taken={stored?.taken}
        refusal={
          taken > 0
            ? 'Este tipo já tem ingressos vendidos ou reservados e não pode ser removido'
            : count === 1
              ? 'O evento precisa de ao menos um tipo de ingresso'
              : undefined
        }
        onMove={onMove}
        onRemove={onRemove}
      />
    </fieldset>
  );
}
