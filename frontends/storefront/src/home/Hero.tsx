import { Link } from '@ticketing/shared/router';
import type { EventView } from '@ticketing/proto';
import { formatBRL, toast } from '@ticketing/shared';
import { Checkout } from '../checkout/Checkout.tsx';
import { useBuyFlow } from '../checkout/useBuyFlow.ts';
import { BuyButton } from '../event/BuyButton.tsx';
import { EventFacts } from '../event/EventFacts.tsx';
import { DateBadge } from '../events/DateBadge.tsx';
import { EventImage } from '../events/EventImage.tsx';

/** The earliest upcoming event: the card opens its page, the button buys right here. */
export function Hero({ event }: { event: EventView }) {
  const buy = useBuyFlow();
  return (
    <article className="hero" aria-labelledby="hero-titulo">
      <div className="hero__media">
        <EventImage src={event.imageUrl} eager />
        <DateBadge date={event.date} />
      </div>
      <div className="hero__body">
        <p className="hero__eyebrow">Próximo evento</p>
        <h2 id="hero-titulo" className="hero__title">
          <Link to={`/event/${event.id}`} className="hero__link">
            {event.title}
          </Link>
        </h2>
        <EventFacts event={event} />
        <p className="hero__price numeric">{formatBRL(event.price)}</p>
        <div className="hero__actions">
          <BuyButton event={event} onBuy={buy.start} block={false} />
          <Link to={`/event/${event.id}`} className="hero__details">
            Ver detalhes
          </Link>
        </div>
      </div>
      <Checkout
        event={event}
        promo={null}
        open={buy.open}
        onOpenChange={buy.setOpen}
        onSuccess={() =>
          toast({
            title: 'Pagamento iniciado!',
            description: 'Acompanhe o status do seu pedido na página de perfil.',
          })
        }
      />
    </article>
  );
}
