import { useMemo } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import type { EventView } from '@ticketing/proto';
import { useZodForm } from '@ticketing/shared/forms';
import { typesOnSale } from '../events/ticket-types.ts';
import { newTicket, ticketsFormSchema } from './tickets-form.ts';

/**
 * The tickets of the checkout: how many of each type, and each one's holder. It starts with one ticket of the first
 * type on sale, the buyer's own; tickets stay grouped by type, in the organiser's order.
 */
export function useTicketsForm(event: EventView) {
  const schema = useMemo(() => ticketsFormSchema(event.ticketTypes), [event.ticketTypes]);
  const [first] = typesOnSale(event);
  const form = useZodForm(schema, { defaultValues: { tickets: first ? [newTicket(first.id, true)] : [] } });
  // `key`: the field array's own ids are not ticket data.
  const list = useFieldArray({ control: form.control, name: 'tickets', keyName: 'key' });
  const tickets = useWatch({ control: form.control, name: 'tickets' });
  const order = event.ticketTypes.map((type) => type.id);

  /** One more ticket of the type, after the others of its type. */
  function add(ticketTypeId: string) {
    const rank = order.indexOf(ticketTypeId);
    const at = tickets.filter((ticket) => order.indexOf(ticket.ticketTypeId) <= rank).length;
    list.insert(at, newTicket(ticketTypeId), { shouldFocus: false });
  }

  /** The type's last ticket goes. */
  function remove(ticketTypeId: string) {
    const at = tickets.findLastIndex((ticket) => ticket.ticketTypeId === ticketTypeId);
    if (at >= 0) list.remove(at);
  }

  /** 'Este ingresso é meu' names one ticket: checking it on one unchecks it on the others. */
  function claim(index: number) {
    tickets.forEach((ticket, other) => {
      if (other !== index && ticket.mine) form.setValue(`tickets.${other}.mine`, false);
    });
  }

  return { form, fields: list.fields, tickets, add, remove, claim };
}

export type TicketsFormState = ReturnType<typeof useTicketsForm>;
