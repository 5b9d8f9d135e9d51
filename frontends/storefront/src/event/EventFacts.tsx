import type { EventView } from '@ticketing/proto';
import { Badge, formatDate, formatTime } from '@ticketing/shared';
import { isSoldOut, remainingLabel } from '../events/availability.ts';
import { CalendarIcon, ClockIcon, PinIcon, SeatIcon } from '../ui/icons.tsx';
import '../events/events.css';

/** Date, time, place and spots left (no count when the event has no maximum). */
export function EventFacts({ event }: { event: EventView }) {
  return (
    <ul className="event-facts">
      <li className="event-fact">
        <CalendarIcon />
        <span>
          <span className="visually-hidden">Data: </span>
          <time dateTime={event.date}>{formatDate(event.date)}</time>
        </span>
      </li>
      <li className="event-fact">
        <ClockIcon />
        <span className="numeric">
          <span className="visually-hidden">Horário: </span>
          {formatTime(event.date)}
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
