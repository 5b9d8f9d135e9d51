import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ParticipantsView } from '@ticketing/proto';
import { Pager, Skeleton, useFailureToast } from '@ticketing/shared';
import { filtersInWords, participantsKey, type ParticipantsFilters } from './participants.ts';
import { ParticipantsTable } from './ParticipantsTable.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { CountFacts } from '../lib/Fact.tsx';

interface ParticipantsListProps {
  eventId: string;
  filters: ParticipantsFilters;
  page: number;
  onPageChange(page: number): void;
}

/** The event's totals, then the tickets that match the filters, a page at a time. */
export function ParticipantsList({ eventId, filters, page, onPageChange }: ParticipantsListProps) {
  const list = useQuery<ParticipantsView>({
    queryKey: participantsKey(eventId, filters, page),
    placeholderData: keepPreviousData,
    // Guests come in by the minute on the event's day: every visit asks again.
    staleTime: 0,
  });
  useFailureToast(list.error, 'Erro ao carregar participantes');

  if (list.isPending) {
    return (
      <div className="participants-loading" aria-label="Carregando participantes">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} style={{ height: '2.5rem' }} />
        ))}
      </div>
    );
  }
  if (!list.data) {
    return (
      <LoadFailure
        message="Não foi possível carregar os participantes."
        error={list.error}
        onRetry={() => list.refetch()}
      />
    );
  }

  const { totals, matching, tickets, totalPages, sessions } = list.data;
  const filtered = filtersInWords(filters) !== '';
  // An event of several sessions counts who came in to each.
  const perSession = sessions.length > 1 ? sessions : [];
  return (
    <>
      <CountFacts
        className="participants-totals"
        counts={{
          Ingressos: totals.tickets,
          'Já entraram': totals.checkedIn,
          ...Object.fromEntries(perSession.map((session) => [`Entraram em ${session.label}`, session.checkedIn])),
          Cancelados: totals.cancelled,
        }}
      />
      <p className="participants-count" aria-live="polite">
        {matching === 1 ? '1 participante encontrado' : `${matching} participantes encontrados`}
      </p>
      {tickets.length === 0 ? (
        <p className="list-message">
          {filtered ? 'Nenhum participante encontrado com esses filtros.' : 'Nenhum participante neste evento ainda.'}
        </p>
      ) : (
        <ParticipantsTable tickets={tickets} sessions={perSession} busy={list.isPlaceholderData} />
      )}
      <Pager page={page} totalPages={totalPages} onPageChange={onPageChange} />
    </>
  );
}
