import { CONVENIENCE_FEE_CENTS, fromCents, toCents, type EventView } from '@ticketing/proto';
import { formatBRL, formatDate, formatTime } from '@ticketing/shared';
import { ticketCount, totalCents, type SummaryLine } from './tickets-form.ts';
import type { Promo } from './types.ts';

interface OrderSummaryProps {
  event: EventView;
  lines: SummaryLine[];
  promo: Promo | null;
  /** A coupon applied, and what it takes off the tickets. */
  discount: { code: string; cents: number } | null;
}

/**
 * The event, the tickets by type at their price (the promotional one when a code applies), the fee per ticket, the
 * coupon's discount (under the tickets' subtotal it is taken from) and the total to pay.
 */
export function OrderSummary({ event, lines, promo, discount }: OrderSummaryProps) {
  const count = ticketCount(lines);
  const fee = formatBRL(fromCents(CONVENIENCE_FEE_CENTS));
  const subtotal = lines.reduce((sum, line) => sum + line.count * toCents(promo?.price ?? line.price), 0);
  return (
    <section className="order-summary" aria-label="Resumo do pedido">
      <p className="order-summary__event">{event.title}</p>
      <p className="order-summary__when numeric">
        {formatDate(event.date)} · {formatTime(event.date)}
      </p>
      <p className="order-summary__where">{event.location}</p>
      <dl className="order-summary__lines numeric">
        {lines.map((line) => (
          <div key={line.name}>
            <dt>
              {line.count > 1 && `${line.count} × `}
              {line.name}
              {line.lotName && <span className="order-summary__lot"> · {line.lotName}</span>}
            </dt>
            <dd>
              {promo && (
                <del className="price-original">
                  <span className="visually-hidden">Preço original: </span>
                  {formatBRL(fromCents(line.count * toCents(line.price)))}
                </del>
              )}{' '}
              {formatBRL(fromCents(line.count * toCents(promo?.price ?? line.price)))}
            </dd>
          </div>
        ))}
        {discount && (
          <div className="order-summary__subtotal">
            <dt>Subtotal</dt>
            <dd>{formatBRL(fromCents(subtotal))}</dd>
          </div>
        )}
        <div>
          <dt>Taxa de conveniência{count > 1 && ` (${count} × ${fee})`}</dt>
          <dd>{formatBRL(fromCents(count * CONVENIENCE_FEE_CENTS))}</dd>
        </div>
        {discount && (
          <div className="order-summary__discount">
            <dt>Desconto ({discount.code})</dt>
            <dd>− {formatBRL(fromCents(discount.cents))}</dd>
          </div>
        )}
        <div className="order-summary__total">
          <dt>Total</dt>
          <dd>{formatBRL(fromCents(totalCents(lines, promo, discount?.cents)))}</dd>
        </div>
      </dl>
    </section>
  );
}
