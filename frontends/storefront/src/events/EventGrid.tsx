import type { EventView } from '@ticketing/proto';
import { EventCard, EventCardSkeleton } from './EventCard.tsx';
import './events.css';

/** Six skeleton cards stand in for the grid while it loads (spec §9). */
const SKELETONS = 6;

export function EventGrid({ events, busy = false }: { events: EventView[]; busy?: boolean }) {
  return (
    <ul className="bare-list event-grid" aria-busy={busy || undefined}>
      {events.map((event) => (
        <li key={event.id}>
          <EventCard event={event} />
        </li>
      ))}
    </ul>
  );
}

export function EventGridSkeleton() {
  return (
    <div className="bare-list event-grid" role="status" aria-label="Carregando eventos">
      {Array.from({ length: SKELETONS }, (_, index) => (
        <EventCardSkeleton key={index} />
      ))}
    </div>
  );
}
