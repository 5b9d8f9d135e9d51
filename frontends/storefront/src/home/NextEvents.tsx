import { Link } from '@ticketing/shared/router';
import type { EventView } from '@ticketing/proto';
import { buttonClass } from '@ticketing/shared';
import { EventCard } from '../events/EventCard.tsx';

/** How many events follow the hero in the side list (spec §9). */
export const NEXT_EVENTS = 1;

/** 'Próximos Eventos': the events after the hero's, and the way to all of them. */
export function NextEvents({ events }: { events: EventView[] }) {
  return (
    <aside className="next-events" aria-labelledby="proximos-eventos">
      <h2 id="proximos-eventos" className="next-events__title">
        Próximos Eventos
      </h2>
      {events.length > 0 ? (
        <ul className="next-events__list">
          {events.map((event) => (
            <li key={event.id}>
              <EventCard event={event} headingLevel={3} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="next-events__empty">Novas datas serão anunciadas em breve.</p>
      )}
      <Link to="/eventos" className={buttonClass('outline', 'md', true)}>
        Ver todos os eventos
      </Link>
    </aside>
  );
}
