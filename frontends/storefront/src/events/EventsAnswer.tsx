import type { ReactNode } from 'react';
import type { EventView } from '@ticketing/proto';
import { LoadError } from '../ui/LoadError.tsx';
import { EmptyState } from '../ui/StatusMessage.tsx';
import type { useEvents } from './queries.ts';

interface EventsAnswerProps {
  events: ReturnType<typeof useEvents>;
  /** The list is not known yet: `skeleton` stands in for it. */
  loading: boolean;
  skeleton: ReactNode;
  /** Said when no event is listed. */
  empty: ReactNode;
  children(events: EventView[]): ReactNode;
}

/** The listing as a page shows it: its skeleton while it loads, the failure with a retry, a word when it is empty. */
export function EventsAnswer({ events, loading, skeleton, empty, children }: EventsAnswerProps) {
  if (loading) return skeleton;
  if (events.isError || !events.data) {
    return (
      <LoadError title="Não foi possível carregar os eventos." error={events.error} onRetry={() => events.refetch()} />
    );
  }
  if (events.data.length === 0) return <EmptyState>{empty}</EmptyState>;
  return children(events.data);
}
