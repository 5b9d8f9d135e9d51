import type { DoorEventView } from '@ticketing/proto';
import { formatShortDate, formatTime, SelectField } from '@ticketing/shared';

interface EventChoiceProps {
  events: DoorEventView[];
  eventId: string;
  onChange(eventId: string): void;
}

/** The event the panel follows: today's events first (started or not, listed or not), then upcoming ones. */
export function EventChoice({ events, eventId, onChange }: EventChoiceProps) {
  const today = events.filter((event) => event.today);
  const upcoming = events.filter((event) => !event.today);
  return (
    <SelectField
      label="Evento"
      className="door-panel-page__event"
      value={eventId}
      onChange={(event) => onChange(event.target.value)}
    >
      {today.length > 0 && (
        <optgroup label="Hoje">
          {today.map((event) => (
            <option key={event.id} value={event.id}>
              {event.title} — {formatTime(event.date)}
            </option>
          ))}
        </optgroup>
      )}
      {upcoming.length > 0 && (
        <optgroup label="Próximos">
          {upcoming.map((event) => (
            <option key={event.id} value={event.id}>
              {event.title} — {formatShortDate(event.date)}
            </option>
          ))}
        </optgroup>
      )}
    </SelectField>
  );
}
