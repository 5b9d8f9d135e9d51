import type { UseQueryResult } from '@tanstack/react-query';
import type { DoorEventView, EventSession } from '@ticketing/proto';
import { Checkbox, formatShortDate, SelectField, useFailureToast } from '@ticketing/shared';
import { SessionChoice } from './SessionChoice.tsx';

interface DoorOptionsProps {
  events: UseQueryResult<DoorEventView[]>;
  eventId: string;
  onEventChange(eventId: string): void;
  /** The chosen event's sessions, and the one this door checks in. */
  sessions: EventSession[];
  sessionId: string | undefined;
  onSessionChange(sessionId: string): void;
  /** Only admins may admit every event's tickets at once. */
  mayChooseAll: boolean;
  barcodes: boolean;
  onBarcodesChange(barcodes: boolean): void;
}

/**
 * Under the camera: the event this door checks in (today's first), its session when it has several, and barcode
 * formats besides QR codes.
 */
export function DoorOptions({
  events,
  eventId,
  onEventChange,
  sessions,
  sessionId,
  onSessionChange,
  mayChooseAll,
  barcodes,
  onBarcodesChange,
}: DoorOptionsProps) {
  useFailureToast(events.error, 'Erro');
  const everyEvent = eventId === '';
  return (
    <details className="scanner__options" open={everyEvent || undefined}>
      <summary>Opções da leitura</summary>
      <SelectField
        label="Evento desta entrada"
        hint={
          everyEvent
            ? undefined
            : 'Ingressos de outros eventos são recusados. A lista de ingressos fica no aparelho para ler sem internet.'
        }
        value={eventId}
        onChange={(event) => onEventChange(event.target.value)}
        disabled={!events.data}
      >
        {mayChooseAll && <option value="">Todos os eventos</option>}
        {events.data?.map((event) => (
          <option key={event.id} value={event.id}>
            {event.today ? 'Hoje — ' : ''}
            {event.title} — {formatShortDate(event.date)}
          </option>
        ))}
      </SelectField>
      {sessionId && (
        <SessionChoice
          label="Sessão desta entrada"
          hint="Cada ingresso entra uma vez por sessão."
          sessions={sessions}
          sessionId={sessionId}
          onChange={onSessionChange}
        />
      )}
      {events.data?.length === 0 && !mayChooseAll && (
        <p className="scanner__warning" role="note">
          Você não está escalado para a portaria de nenhum evento. Peça a um administrador para incluí-lo na equipe de
          portaria do evento.
        </p>
      )}
      {everyEvent && mayChooseAll && (
        <p className="scanner__warning" role="note">
          Atenção: com “Todos os eventos”, ingressos válidos de qualquer evento são aceitos, e a leitura sem internet
          fica desligada. Escolha o evento desta entrada.
        </p>
      )}
      <Checkbox
        label="Ler também códigos de barras (Aztec, Code 39/93/128, EAN-8/13, PDF 417, UPC)"
        checked={barcodes}
        onChange={(event) => onBarcodesChange(event.target.checked)}
      />
    </details>
  );
}
