import type { OrderView } from '@ticketing/proto';
import { formatDate, formatTime } from '@ticketing/shared';

/** The event's day, time and place among a card's facts: an order's and a ticket held in the user's name alike. */
export function EventFacts({ event }: { event: Pick<OrderView['event'], 'date' | 'location'> }) {
  return (
    <>
      <div>
        <dt>Data</dt>
        <dd className="numeric">
          {formatDate(event.date)} às {formatTime(event.date)}
        </dd>
      </div>
      <div>
        <dt>Local</dt>
        <dd>{event.location}</dd>
      </div>
    </>
  );
}
