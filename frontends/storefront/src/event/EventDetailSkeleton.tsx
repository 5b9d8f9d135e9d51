import { Skeleton } from '@ticketing/shared';

/** The event page's shape while the event loads. */
export function EventDetailSkeleton() {
  return (
    <div className="event-detail__layout" role="status" aria-label="Carregando evento">
      <Skeleton className="event-image event-detail__image" />
      <div className="event-detail__summary card">
        <Skeleton style={{ height: '2rem', width: '90%' }} />
        <Skeleton style={{ height: '2rem', width: '60%', marginBottom: '1rem' }} />
        {[55, 25, 70, 35].map((width) => (
          <Skeleton key={width} style={{ width: `${width}%`, marginBottom: '0.75rem' }} />
        ))}
        <Skeleton style={{ height: '2.5rem', width: '40%', margin: '1rem 0' }} />
        <Skeleton style={{ height: '3.25rem' }} />
      </div>
    </div>
  );
}
