import type { SalesView } from '@ticketing/proto';
import { formatShortDate, SelectField } from '@ticketing/shared';

interface Choice {
  id: string;
  title: string;
  date: string | null;
}

/**
 * Which figures to see: every event, or one of those with orders (the lines of the overall view). An event reached
 * by its address but still without orders is offered too, so the field always says what is on screen.
 */
export function EventPicker({
  eventId,
  overall,
  shown,
  onChange,
}: {
  eventId: string;
  overall: SalesView | undefined;
  shown: SalesView | undefined;
  onChange(eventId: string): void;
}) {
  const choices: Choice[] = (overall?.perEvent ?? []).map((row) => ({
    id: row.eventId,
    title: row.title,
    date: row.date,
  }));
  if (eventId && !choices.some((choice) => choice.id === eventId)) {
    const title = shown?.event?.id === eventId ? shown.event.title : null;
    choices.push({ id: eventId, title: title ?? 'Evento sem pedidos', date: shown?.event?.date ?? null });
  }
  return (
    <SelectField
      label="Evento"
      className="sales-picker"
      value={eventId}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Todos os eventos</option>
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.date ? `${choice.title} · ${formatShortDate(choice.date)}` : choice.title}
        </option>
      ))}
    </SelectField>
  );
}
