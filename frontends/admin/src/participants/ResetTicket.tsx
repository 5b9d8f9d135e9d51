import type { ParticipantView } from '@ticketing/proto';
import { Button, useResetTicket } from '@ticketing/shared';
import { PARTICIPANTS_KEY } from './participants.ts';

/** 'Resetar Ingresso': a used ticket may be read at the door once more (a guest who left and came back). */
export function ResetTicket({ ticket }: { ticket: ParticipantView }) {
  const reset = useResetTicket(ticket.orderId, { errorTitle: 'Erro ao resetar ticket', refresh: PARTICIPANTS_KEY });
  return (
    <Button
      variant="destructive"
      size="sm"
      loading={reset.isPending}
      aria-label={`Resetar Ingresso de ${ticket.holderName}`}
      onClick={() => reset.mutate()}
    >
      Resetar Ingresso
    </Button>
  );
}
