import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@ticketing/shared/router';
import { sessionLabel, type AdminEventView } from '@ticketing/proto';
import { Button, buttonClass, formatDateTime, Page, toastError, useDebounced } from '@ticketing/shared';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { useCsvExport } from '../lib/download.ts';
import {
  allParticipants,
  exportPath,
  filtersInWords,
  NO_FILTERS,
  type ParticipantsFilters as Filters,
} from '../participants/participants.ts';
import { ParticipantsFilters } from '../participants/ParticipantsFilters.tsx';
import { ParticipantsList } from '../participants/ParticipantsList.tsx';
import { PrintSheet, type PrintedList } from '../participants/PrintSheet.tsx';
import { adminEventKey } from '../events/queries.ts';
import '../lib/admin.css';
import '../lib/data-table.css';
import '../participants/participants.css';

/** Waits this long after the last keystroke before searching. */
const TYPING_PAUSE_MS = 300;

/**
 * /admin/eventos/:id/participantes: every ticket of the event, bought or courtesy, searched and filtered; exported
 * for the venue, printed as a sign-in sheet, and each ticket's e-mail sent again or its entrance reset.
 */
export default function Participants() {
  const eventId = useParams().id!;
  const [typed, setTyped] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const filters = useDebounced(typed, TYPING_PAUSE_MS);
  const event = useQuery<AdminEventView>({ queryKey: adminEventKey(eventId) });
  const title = event.data?.title ?? 'Evento';
  const sessions = (event.data?.sessions ?? []).map((session, position) => ({
    id: session.id,
    label: sessionLabel(session, position),
  }));
  const exportCsv = useCsvExport(exportPath(eventId, filters), `participantes-${eventId}.csv`);
  const [printed, setPrinted] = useState<PrintedList | null>(null);
  const print = useMutation({
    mutationFn: () => allParticipants(eventId, filters),
    onSuccess: (tickets) =>
      setPrinted({
        eventTitle: title,
        narrowedTo: filtersInWords(filters, sessions),
        tickets,
        printedAt: new Date(),
      }),
    onError: (error) => toastError('Erro ao preparar a impressão', error),
  });

  return (
    <Page title={`Participantes · ${title}`} heading={null}>
      <div className="participants-screen">
        <BackOfficeNav />
        <Link to="/admin/eventos" className={buttonClass('ghost', 'sm')}>
          ← Voltar para eventos
        </Link>
        <h1 className="page__title">Participantes</h1>
        <p className="admin-lead participants-event">
          {event.data ? (
            <>
              <strong>{event.data.title}</strong> · {formatDateTime(event.data.date)} · {event.data.location}
            </>
          ) : event.isError ? (
            'Não foi possível carregar os dados do evento.'
          ) : (
            'Carregando evento...'
          )}
        </p>
        <div className="admin-lead__actions">
          <Button variant="outline" size="sm" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
            Exportar CSV
          </Button>
          <Button variant="outline" size="sm" loading={print.isPending} onClick={() => print.mutate()}>
            Imprimir lista
          </Button>
        </div>
        <ParticipantsFilters
          filters={typed}
          sessions={sessions}
          onChange={(next) => {
            setTyped(next);
            setPage(1);
          }}
        />
        <ParticipantsList eventId={eventId} filters={filters} page={page} onPageChange={setPage} />
      </div>
      {printed && <PrintSheet list={printed} />}
    </Page>
  );
}
