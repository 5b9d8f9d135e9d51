import { DEFAULT_TYPE_NAME, type TicketTypeView } from '@ticketing/proto';
import { Checkbox, cpfMask, TextField, useAuth } from '@ticketing/shared';
import type { TicketsFormState } from './useTicketsForm.ts';

interface HolderFieldsProps {
  state: TicketsFormState;
  index: number;
  type: TicketTypeView | undefined;
}

/**
 * Whom one ticket is for: the buyer ('Este ingresso é meu', sent without a holder: the server names the buyer), or
 * someone else by name and e-mail, and CPF when the type asks for a document at the door.
 */
export function HolderFields({ state, index, type }: HolderFieldsProps) {
  const { form, tickets, claim } = state;
  const { field } = form;
  const auth = useAuth();
  const mine = tickets[index]?.mine ?? false;
  const typeName = type?.name ?? DEFAULT_TYPE_NAME;
  return (
    <fieldset className="holder">
      <legend className="holder__title">
        Ingresso {index + 1} · {typeName}
      </legend>
      <Checkbox
        label="Este ingresso é meu"
        {...form.register(`tickets.${index}.mine`, {
          onChange: (change: { target: { checked: boolean } }) => change.target.checked && claim(index),
        })}
      />
      {mine ? (
        auth.user && (
          <p className="holder__buyer">
            {auth.user.name} · {auth.user.email}
          </p>
        )
      ) : (
        <div className="stack holder__fields">
          <TextField label="Nome do titular" autoComplete="off" {...field(`tickets.${index}.name`)} />
          <TextField label="E-mail do titular" type="email" autoComplete="off" {...field(`tickets.${index}.email`)} />
          {type?.requiresDocument && (
            <TextField
              label="CPF do titular"
              mask={cpfMask}
              hint="O titular apresenta um documento com foto na entrada."
              {...field(`tickets.${index}.cpf`)}
            />
          )}
        </div>
      )}
    </fieldset>
  );
}
