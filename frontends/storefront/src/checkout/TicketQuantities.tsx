import { MAX_TICKETS_PER_ORDER, orderItemMessages, type TicketTypeView } from '@ticketing/proto';
import { Button, formatBRL } from '@ticketing/shared';
import { lotLabel } from '../events/ticket-types.ts';
import type { TicketChoice } from './tickets-form.ts';

interface TicketQuantitiesProps {
  types: TicketTypeView[];
  tickets: TicketChoice[];
  /** A promotional code is good for one ticket an order. */
  promo: boolean;
  onAdd(ticketTypeId: string): void;
  onRemove(ticketTypeId: string): void;
}

/**
 * How many tickets of each type: from 1 to 10 in all (1 with a promotional code). A type that went off sale while the dialog was open (the page
 * reads the event again after a refusal) stays while some of its tickets are chosen, so they can be taken out.
 */
export function TicketQuantities({ types, tickets, promo, onAdd, onRemove }: TicketQuantitiesProps) {
  const total = tickets.length;
  const max = promo ? 1 : MAX_TICKETS_PER_ORDER;
  return (
    <fieldset className="ticket-quantities">
      <legend className="field__label">Quantidade de ingressos</legend>
      {types.map((type) => {
        const count = tickets.filter((ticket) => ticket.ticketTypeId === type.id).length;
        if (!type.onSale && count === 0) return null;
        const lot = lotLabel(type);
        return (
          <div key={type.id} className="wrap-row ticket-quantity">
            <div className="wrap-row ticket-quantity__type">
              <span className="ticket-quantity__name">{type.name}</span>
              <span className="ticket-quantity__price numeric">{formatBRL(type.price)}</span>
              {lot && <span className="ticket-quantity__lot">{lot}</span>}
            </div>
            <div className="stepper" role="group" aria-label={`Quantidade de ${type.name}`}>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Remover um ingresso ${type.name}`}
                disabled={count === 0 || total === 1}
                onClick={() => onRemove(type.id)}
              >
                −
              </Button>
              <output className="stepper__count numeric" aria-live="polite">
                {count}
              </output>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Adicionar um ingresso ${type.name}`}
                disabled={!type.onSale || total >= max}
                onClick={() => onAdd(type.id)}
              >
                +
              </Button>
            </div>
          </div>
        );
      })}
      {total >= max && (
        <p className="field__hint">{promo ? orderItemMessages.promoOneTicket : orderItemMessages.tooManyTickets}</p>
      )}
    </fieldset>
  );
}
