import { CONVENIENCE_FEE_CENTS, fromCents, toCents, type EventView } from '@ticketing/proto';
import { formatBRL, formatDate, formatTime } from '@ticketing/shared';
import type { Promo } from './types.ts';

/** The event, the ticket's price (the promotional one when a code applies), the fee and the total to pay. */
export function OrderSummary({ event, promo }: { event: EventView; promo: Promo | null }) {
  const ticketCents = toCents(promo?.price ?? event.price);
  return (
    <section className="order-summary" aria-label="Resumo do pedido">
      <p className="order-summary__event">{event.title}</p>
      <p className="order-summary__when numeric">
        {formatDate(event.date)} · {formatTime(event.date)}
      </p>
      <p className="order-summary__where">{event.location}</p>
      <dl className="order-summary__lines numeric">
        <div>
          <dt>Ingresso</dt>
          <dd>
            {promo && (
              <del className="price-original">
                <span className="visually-hidden">Preço original: </span>
                {formatBRL(event.price)}
              </del>
            )}{' '}
            {formatBRL(fromCents(ticketCents))}
          </dd>
        </div>
        <div>
          <dt>Taxa de conveniência</dt>
          <dd>{formatBRL(fromCents(CONVENIENCE_FEE_CENTS))}</dd>
        </div>
        <div className="order-summary__total">
          <dt>Total</dt>
          <dd>{formatBRL(fromCents(ticketCents + CONVENIENCE_FEE_CENTS))}</dd>
        </div>
      </dl>
    </section>
  );
}
