import type { ParticipantView } from '@ticketing/proto';
import { Button, useResetTicket } from '@ticketing/shared';
import { PARTICIPANTS_KEY, type ParticipantsSession } from './participants.ts';

/**
 * 'Resetar Ingresso': a used ticket may be read at the door once more (a guest who left and came back), in
 * `session` when the event has several ('Resetar', next to that session's entrance), else in its one session.
 */
export function ResetTicket({ ticket, session }: { ticket: ParticipantView; session?: ParticipantsSession }) {
  const reset = useResetTicket(ticket.orderId, {
    errorTitle: 'Erro ao resetar ticket',
    refresh: PARTICIPANTS_KEY,
    sessionId: session?.id,
  });
  return (
    <Button
      variant="destructive"
      size="sm"
      loading={reset.isPending}
      aria-label={`Resetar Ingresso de ${ticket.holderName}${session ? ` em ${session.label}` : ''}`}
      onClick={() => reset.mutate()}
    >
      {session ? 'Resetar' : 'Resetar Ingresso'}
    </Button>
  );
}
