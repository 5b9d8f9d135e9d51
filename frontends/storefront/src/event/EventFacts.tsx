import type { EventView } from '@ticketing/proto';
import { Badge } from '@ticketing/shared';
import { isSoldOut, remainingLabel } from '../events/availability.ts';
import { eventDays, eventHours } from '../events/schedule.ts';
import { CalendarIcon, ClockIcon, PinIcon, SeatIcon } from '../ui/icons.tsx';
import '../events/events.css';

/** Days, hours, place and spots left (no count when the event has no maximum). */
export function EventFacts({ event }: { event: EventView }) {
  return (
    <ul className="event-facts">
      <li className="event-fact">
        <CalendarIcon />
        <span>
          <span className="visually-hidden">Data: </span>
          <time dateTime={event.date}>{eventDays(event.sessions)}</time>
        </span>
      </li>
      <li className="event-fact">
        <ClockIcon />
        <span className="numeric">
          <span className="visually-hidden">Horário: </span>
          {eventHours(event.sessions)}
        </span>
      </li>
      <li className="event-fact">
        <PinIcon />
        <span>
          <span className="visually-hidden">Local: </span>
          {event.location}
        </span>
      </li>
      {event.remaining !== null && (
        <li className="event-fact">
          <SeatIcon />
          {isSoldOut(event) ? (
            <Badge tone="danger">Esgotado</Badge>
          ) : (
            <span className="numeric">{remainingLabel(event.remaining)}</span>
          )}
        </li>
      )}
    </ul>
  );
}
