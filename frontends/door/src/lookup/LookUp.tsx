import { useState } from 'react';
import { Button, iconStroke } from '@ticketing/shared';
import { Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { LookUpSearch } from './LookUpSearch.tsx';
import './lookup.css';

const SearchIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" {...iconStroke}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </svg>
);

interface LookUpProps {
  eventId: string;
  /** The session the door checks in: who came in, admitting and resetting are for it. */
  sessionId: string;
  onAdmit(ticketId: string): void;
}

/**
 * Finds a guest of the chosen event by name, whole CPF, whole e-mail or order code; admitting goes by their ticket's
 * id, recorded by the server as a reading at this door, and the door shows its verdict as after a scan.
 */
export function LookUp({ eventId, sessionId, onAdmit }: LookUpProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="lookup-trigger">
        <DialogTrigger asChild>
          <Button variant="outline" block>
            <SearchIcon /> Buscar participante
          </Button>
        </DialogTrigger>
      </div>
      <DialogContent
        title="Buscar participante"
        description="Quando o QR Code não puder ser lido: busque o participante deste evento e admita-o por aqui."
        className="lookup-dialog"
      >
        <LookUpSearch
          eventId={eventId}
          sessionId={sessionId}
          onAdmit={(ticketId) => {
            // Closed first, so the verdict shows over the camera as after any reading.
            setOpen(false);
            onAdmit(ticketId);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
