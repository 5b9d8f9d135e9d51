import type { EventView } from '@ticketing/proto';
import { formatDate } from '@ticketing/shared';
import { sessionName, sessionTimes } from '../events/schedule.ts';

/** The schedule of an event of several sessions: each one's name, day and hours, in order. */
export function EventSchedule({ event }: { event: EventView }) {
  if (event.sessions.length < 2) return null;
  return (
    <section className="event-schedule" aria-labelledby="programacao">
      <h2 id="programacao">Programação</h2>
      <ol className="event-schedule__list">
        {event.sessions.map((session, position) => (
          <li key={session.id} className="event-schedule__session">
            <span className="event-schedule__name">{sessionName(session, position)}</span>
            <time dateTime={session.startsAt}>{formatDate(session.startsAt)}</time>
            <span className="numeric">{sessionTimes(session)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
