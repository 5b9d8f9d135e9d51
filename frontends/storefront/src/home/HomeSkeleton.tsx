import { Skeleton } from '@ticketing/shared';
import { EventCardSkeleton } from '../events/EventCard.tsx';

/** The hero's and the side list's shape while the events load; bars sized to their text, as an event card's are. */
export function HomeSkeleton() {
  return (
    <div className="home-events" role="status" aria-label="Carregando eventos">
      <div className="hero hero--skeleton" aria-hidden="true">
        <Skeleton className="event-image" />
        <div className="hero__body">
          <Skeleton style={{ width: '30%' }} />
          <Skeleton style={{ height: '2rem', width: '90%' }} />
          <Skeleton style={{ width: '50%' }} />
          <Skeleton style={{ width: '70%' }} />
          <Skeleton style={{ height: '3.25rem', width: '12rem' }} />
        </div>
      </div>
      <div className="next-events" aria-hidden="true">
        <Skeleton style={{ height: '1.75rem', width: '60%' }} />
        <EventCardSkeleton />
      </div>
    </div>
  );
}
