import { formatDate, formatShortDate } from '@ticketing/shared';
import './events.css';

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];

/** The day and month on a calendar leaf, in São Paulo's calendar like every date of the site. */
export function DateBadge({ date }: { date: string }) {
  const [day, month] = formatShortDate(date).split('/');
  return (
    <time className="date-badge" dateTime={date} title={formatDate(date)}>
      <span className="date-badge__day numeric">{day}</span>
      <span className="date-badge__month">{MONTHS[Number(month) - 1]}</span>
    </time>
  );
}
