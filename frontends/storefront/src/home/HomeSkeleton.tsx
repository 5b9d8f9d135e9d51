import { Skeleton, SkeletonLines } from '@ticketing/shared';
import { EventCardSkeleton } from '../events/EventCard.tsx';

/** The hero's lines, top to bottom, each as tall and wide as its text. */
const HERO_LINES = [
  { width: '30%' },
  { height: '2rem', width: '90%' },
  { width: '50%' },
  { width: '70%' },
  { height: '3.25rem', width: '12rem' },
];

/** The hero's and the side list's shape while the events load; bars sized to their text, as an event card's are. */
export function HomeSkeleton() {
  return (
    <div className="home-events" role="status" aria-label="Carregando eventos">
      <div className="hero hero--skeleton" aria-hidden="true">
        <Skeleton className="event-image" />
        <div className="hero__body">
          <SkeletonLines lines={HERO_LINES} />
        </div>
      </div>
      <div className="next-events" aria-hidden="true">
        <Skeleton style={{ height: '1.75rem', width: '60%' }} />
        <EventCardSkeleton />
      </div>
    </div>
  );
}
