import { useQuery } from '@tanstack/react-query';
import type { EventView } from '@ticketing/proto';
import { Checkbox, formatShortDate, SelectField } from '@ticketing/shared';
import { useFailureToast } from '../lib/useFailureToast.ts';

interface DoorOptionsProps {
  eventId: string;
  onEventChange(eventId: string): void;
  barcodes: boolean;
  onBarcodesChange(barcodes: boolean): void;
}

/** Folded away under the camera: the event this door checks in, and barcode formats besides QR codes. */
export function DoorOptions({ eventId, onEventChange, barcodes, onBarcodesChange }: DoorOptionsProps) {
  const events = useQuery<EventView[]>({ queryKey: ['events'] });
  useFailureToast(events.error, 'Erro');
  return (
    <details className="scanner__options">
      <summary>Opções da leitura</summary>
      <SelectField
        label="Evento desta entrada"
        hint={
          events.isError
            ? 'Não foi possível carregar os eventos; a leitura aceita ingressos de qualquer evento.'
            : 'Com um evento escolhido, ingressos de outros eventos são recusados.'
        }
        value={eventId}
        onChange={(event) => onEventChange(event.target.value)}
        disabled={!events.data}
      >
        <option value="">Todos os eventos</option>
        {events.data?.map((event) => (
          <option key={event.id} value={event.id}>
            {event.title} — {formatShortDate(event.date)}
          </option>
        ))}
      </SelectField>
      <Checkbox
        label="Ler também códigos de barras (Aztec, Code 39/93/128, EAN-8/13, PDF 417, UPC)"
        checked={barcodes}
        onChange={(event) => onBarcodesChange(event.target.checked)}
      />
    </details>
  );
}
