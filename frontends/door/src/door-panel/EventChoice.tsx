import type { DoorEventView } from '@ticketing/proto';
import { formatShortDate, formatTime, SelectField } from '@ticketing/shared';

interface EventChoiceProps {
  events: DoorEventView[];
  eventId: string;
  onChange(eventId: string): void;
}

/** The event the panel follows: today's events first (started or not, listed or not), then upcoming ones. */
export function EventChoice({ events, eventId, onChange }: EventChoiceProps) {
  const groups = [
    { label: 'Hoje', events: events.filter((event) => event.today), when: formatTime },
    { label: 'Próximos', events: events.filter((event) => !event.today), when: formatShortDate },
  ];
  // The shared select bound to an event, as the sales' picker is: the choices and their grouping are the door's.
  return (
    <SelectField
      label="Evento"
      className="door-panel-page__event"
      value={eventId}
      onChange={(e) => onChange(e.target.value)}
    >
      {groups.map(
        (group) =>
          group.events.length > 0 && (
            <optgroup key={group.label} label={group.label}>
              {group.events.map((event) => (
                <option key={event.id} value={event.id}>
                  {event.title} — {group.when(event.date)}
                </option>
              ))}
            </optgroup>
          ),
      )}
    </SelectField>
  );
}
