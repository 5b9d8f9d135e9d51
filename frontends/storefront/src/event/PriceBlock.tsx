import { Link } from '@ticketing/shared/router';
import type { EventView } from '@ticketing/proto';
import { Badge, formatBRL, Skeleton } from '@ticketing/shared';
import { listsTicketTypes } from '../events/ticket-types.ts';
import { TicketTypeList } from './TicketTypeList.tsx';
import type { PromoState } from './usePromo.ts';

/**
 * The ticket price, or each ticket type's when the event sells several (or lots); with a promotional code, the
 * code's price and the original one struck through.
 */
export function PriceBlock({ event, promo }: { event: EventView; promo: PromoState }) {
  if (promo.checking) {
    return (
      <div className="price-block" role="status" aria-label="Verificando código promocional">
        <Skeleton style={{ height: '2.5rem', width: '10rem' }} />
      </div>
    );
  }
  return (
    <div className="price-block">
      {listsTicketTypes(event) ? (
        <>
          {promo.promo && <PromoCode code={promo.promo.code} />}
          <TicketTypeList types={event.ticketTypes} promo={promo.promo} />
        </>
      ) : promo.promo ? (
        <>
          <PromoCode code={promo.promo.code} />
          <p className="price-block__amounts numeric">
            <del className="price-block__original">
              <span className="visually-hidden">Preço original: </span>
              {formatBRL(event.price)}
            </del>{' '}
            <strong className="price-block__price">
              <span className="visually-hidden">Preço com o código {promo.promo.code}: </span>
              {formatBRL(promo.promo.price)}
            </strong>
          </p>
        </>
      ) : (
        <p className="price-block__amounts numeric">
          <strong className="price-block__price">{formatBRL(event.price)}</strong>
        </p>
      )}
      <p className="price-block__hint">+ taxa de conveniência, somada no pagamento</p>
      {promo.courtesyCode && (
        <p className="price-block__courtesy">
          Este código é uma cortesia.{' '}
          <Link to={`/cortesia?code=${encodeURIComponent(promo.courtesyCode)}`}>Resgatar cortesia</Link>
        </p>
      )}
    </div>
  );
}

function PromoCode({ code }: { code: string }) {
  return (
    <p className="price-block__promo">
      <Badge tone="accent">Preço promocional</Badge>
      <span>Código {code}</span>
    </p>
  );
}
