import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@ticketing/shared/router';
import type { AdminEventView } from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { storeAdminEvent } from './queries.ts';

/** Copies an event into a new draft (fields and image, no sales) and opens the copy's editor. */
export function DuplicateEvent({ event }: { event: AdminEventView }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const duplicate = useMutation({
    mutationFn: () => api<AdminEventView>(`/admin/events/${event.id}/duplicate`, { method: 'POST' }),
    onSuccess: (copy) => {
      storeAdminEvent(queryClient, copy);
      toast({ title: 'Evento duplicado', description: 'A cópia foi criada como rascunho.' });
      navigate(`/admin/eventos/${copy.id}`);
    },
    onError: (error) => toastError('Erro ao duplicar evento', error),
  });
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={duplicate.isPending}
      aria-label={`Duplicar ${event.title}`}
      onClick={() => duplicate.mutate()}
    >
      Duplicar
    </Button>
  );
}
