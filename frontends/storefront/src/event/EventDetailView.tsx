import { Link, useNavigate } from '@ticketing/shared/router';
import type { EventView } from '@ticketing/proto';
import { Page } from '@ticketing/shared';
import { Checkout } from '../checkout/Checkout.tsx';
import { promoEvent } from '../events/ticket-types.ts';
import { useBuyFlow } from '../checkout/useBuyFlow.ts';
import { EventImage } from '../events/EventImage.tsx';
import { ArrowLeftIcon, CalendarIcon } from '../ui/icons.tsx';
import { BuyButton } from './BuyButton.tsx';
import { EventFacts } from './EventFacts.tsx';
import { EventSchedule } from './EventSchedule.tsx';
import { PriceBlock } from './PriceBlock.tsx';
import { usePromo } from './usePromo.ts';
import './event-detail.css';

/** The event page: on a phone the facts, the price and the buy button come right after the image. */
export function EventDetailView({ event, promoCode }: { event: EventView; promoCode: string | null }) {
  const navigate = useNavigate();
  const promo = usePromo(promoCode, event.id);
  // A code whose link names a type sells that type alone.
  const sold = promoEvent(event, promo.promo);
  const buy = useBuyFlow();

  return (
    <Page title={event.title} heading={null} className="event-detail">
      <BackLink />
      <div className="event-detail__layout">
        <EventImage src={event.imageUrl} eager className="event-detail__image" />
        <section className="event-detail__summary card" aria-labelledby="evento-titulo">
          <h1 id="evento-titulo" className="event-detail__title">
            {event.title}
          </h1>
          <EventFacts event={event} />
          <PriceBlock event={sold} promo={promo} />
          <BuyButton event={sold} onBuy={buy.start} waiting={promo.checking} />
          {/* The event as a calendar file (America/Sao_Paulo, the place and this page's address). */}
          <a className="event-detail__calendar" href={`/api/events/${event.id}/calendar.ics`} download>
            <CalendarIcon />
            Adicionar à agenda
          </a>
        </section>
        <div className="event-detail__main">
          <EventSchedule event={event} />
          <section className="event-detail__about" aria-labelledby="sobre-evento">
            <h2 id="sobre-evento">Sobre o evento</h2>
            {event.description
              .split(/\n{2,}/)
              .filter(Boolean)
              .map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
          </section>
        </div>
      </div>
      <Checkout
        event={sold}
        promo={promo.promo}
        open={buy.open}
        onOpenChange={buy.setOpen}
        onSuccess={() => navigate('/profile')}
      />
    </Page>
  );
}

export function BackLink() {
  return (
    <Link to="/" className="back-link">
      <ArrowLeftIcon />
      Voltar
    </Link>
  );
}
