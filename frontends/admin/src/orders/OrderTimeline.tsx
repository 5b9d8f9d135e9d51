import type { OrderTimelineEntry } from '@ticketing/proto';
import { formatDateTime } from '@ticketing/shared';
import { TIMELINE_LABELS } from './labels.ts';

/** What happened to the order, oldest first, one step under the other; times in Brasília. */
export function OrderTimeline({ entries }: { entries: OrderTimelineEntry[] }) {
  return (
    <ol className="order-timeline">
      {entries.map((entry, index) => (
        <li
          key={`${entry.kind}-${entry.at}-${index}`}
          className={`order-timeline__step order-timeline__step--${entry.kind}`}
        >
          <span className="order-timeline__label">{TIMELINE_LABELS[entry.kind] ?? entry.kind}</span>
          <time className="order-timeline__time numeric" dateTime={entry.at}>
            {formatDateTime(entry.at)}
          </time>
          {entry.detail && <span className="order-timeline__detail">{entry.detail}</span>}
        </li>
      ))}
    </ol>
  );
}
