import { useQueryClient } from '@tanstack/react-query';
import { cancelEventSchema, type AdminEventView, type CancelEventAnswer } from '@ticketing/proto';
import { toast, toastError } from '@ticketing/shared';
import { adminEventKey, storeAdminEvent } from './queries.ts';
import { ReasonDialog } from '../lib/ReasonDialog.tsx';

const WARNING =
  'Todos os pedidos pagos serão reembolsados e os participantes receberão um e-mail. Esta ação não pode ser desfeita.';

/** 'Cancelar evento': for good, once confirmed with a reason the holders will read. */
export function CancelEvent({ event }: { event: AdminEventView }) {
  const queryClient = useQueryClient();
  return (
    <ReasonDialog<CancelEventAnswer>
      trigger="Cancelar evento"
      title={`Cancelar ${event.title}?`}
      warning={WARNING}
      schema={cancelEventSchema}
      label="Motivo do cancelamento"
      hint="Os participantes receberão este motivo no e-mail."
      confirm="Cancelar evento"
      path={`/admin/events/${event.id}/cancel`}
      onDone={({ message, event: cancelled }) => {
        storeAdminEvent(queryClient, cancelled);
        toast({ title: 'Evento cancelado', description: message });
      }}
      onRefused={(error) => {
        toastError('Erro ao cancelar evento', error);
        // Someone else may have cancelled it meanwhile: show what the server holds now.
        void queryClient.invalidateQueries({ queryKey: adminEventKey(event.id) });
      }}
    />
  );
}
