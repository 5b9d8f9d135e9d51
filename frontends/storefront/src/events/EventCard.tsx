import { Link } from '@ticketing/shared/router';
import type { EventView } from '@ticketing/proto';
import { Badge, formatBRL, Skeleton, SkeletonLines } from '@ticketing/shared';
import { ClockIcon, PinIcon } from '../ui/icons.tsx';
import { isSoldOut } from './availability.ts';
import { DateBadge } from './DateBadge.tsx';
import { EventImage } from './EventImage.tsx';
import { eventHours, shortEventDays } from './schedule.ts';
import './events.css';

/** An event in a list; the whole card opens its page (the title is the link, stretched over the card). */
export function EventCard({ event, headingLevel = 2 }: { event: EventView; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="event-card">
      <div className="event-card__media">
        <EventImage src={event.imageUrl} />
        <DateBadge date={event.date} />
      </div>
      <div className="event-card__body">
        <Heading className="event-card__title">
          <Link to={`/event/${event.id}`} className="event-card__link">
            {event.title}
          </Link>
        </Heading>
        <p className="event-fact">
          <ClockIcon />
          <span className="numeric">
            {event.sessions.length > 1 && `${shortEventDays(event.sessions)} · `}
            <span className="event-card__hours">{eventHours(event.sessions)}</span>
          </span>
        </p>
        <p className="event-fact">
          <PinIcon />
          <span>{event.location}</span>
        </p>
        <p className="ends-row event-card__price">
          <span className="numeric">{formatBRL(event.price)}</span>
          {isSoldOut(event) && <Badge tone="danger">Esgotado</Badge>}
        </p>
      </div>
    </article>
  );
}

/** The card's shape while the list loads. */
export function EventCardSkeleton() {
  return (
    <div className="event-card event-card--skeleton" aria-hidden="true">
      <Skeleton className="event-image" />
      <div className="event-card__body">
        <SkeletonLines
          lines={[
            { height: '1.4rem', width: '85%' },
            { width: '40%' },
            { width: '65%' },
            { height: '1.4rem', width: '30%' },
          ]}
        />
      </div>
    </div>
  );
}
