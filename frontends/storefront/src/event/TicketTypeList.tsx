import type { TicketTypeView } from '@ticketing/proto';
import { Badge, formatBRL } from '@ticketing/shared';
import type { Promo } from '../checkout/types.ts';
import { fewLeftLabel, lotLabel, offSaleLabel } from '../events/ticket-types.ts';

/** The event's ticket types: each one's price now, its lot and what ends it, and why it cannot be bought, if so. */
export function TicketTypeList({ types, promo }: { types: TicketTypeView[]; promo: Promo | null }) {
  return (
    <section className="ticket-types" aria-labelledby="ingressos">
      <h2 id="ingressos" className="ticket-types__title">
        Ingressos
      </h2>
      <ul className="bare-list stack ticket-types__list">
        {types.map((type) => (
          <TicketTypeRow key={type.id} type={type} promo={promo} />
        ))}
      </ul>
    </section>
  );
}

function TicketTypeRow({ type, promo }: { type: TicketTypeView; promo: Promo | null }) {
  const lot = lotLabel(type);
  const fewLeft = fewLeftLabel(type);
  const offSale = offSaleLabel(type);
  return (
    <li className={offSale ? 'stack ticket-type ticket-type--off' : 'stack ticket-type'}>
      <div className="wrap-row ticket-type__head">
        <span className="ticket-type__name">{type.name}</span>
        <span className="ticket-type__amounts numeric">
          {/* Struck through only where the code changes it: a hidden type it sells shows no price of its own. */}
          {promo && promo.price !== type.price ? (
            <>
              <del className="ticket-type__original">
                <span className="visually-hidden">Preço original: </span>
                {formatBRL(type.price)}
              </del>{' '}
              <strong className="ticket-type__price">{formatBRL(promo.price)}</strong>
            </>
          ) : (
            <strong className="ticket-type__price">{formatBRL(promo?.price ?? type.price)}</strong>
          )}
        </span>
      </div>
      {lot && <p className="ticket-type__lot">{lot}</p>}
      {(offSale || fewLeft || type.requiresDocument) && (
        <p className="wrap-row ticket-type__notes">
          {offSale && <Badge tone={type.remaining === 0 ? 'danger' : 'neutral'}>{offSale}</Badge>}
          {fewLeft && <Badge tone="warning">{fewLeft}</Badge>}
          {type.requiresDocument && <span className="ticket-type__document">Conferir documento na entrada</span>}
        </p>
      )}
    </li>
  );
}
