import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './api/client.ts';
import { toast, toastError } from './ui/toast.ts';

/**
 * An admin lets a used ticket in again, to the event's session `sessionId` (undefined: to every session); a refused
 * login is an error to show, never a trip to /login mid-queue.
 */
const resetTicket = (orderId: string, sessionId: string | undefined) =>
  api<{ message: string }>(`/reset-ticket/${encodeURIComponent(orderId)}`, {
    method: 'POST',
    body: sessionId ? { sessionId } : {},
    keepSessionOn401: true,
  });

/**
 * 'Resetar Ingresso' wherever it is offered (the door, the participants' list): the order's used ticket may be read
 * at the door once more, in `sessionId` (else in every session); the list that showed it (`refresh`) is read again.
 */
export function useResetTicket(
  orderId: string,
  { errorTitle, refresh, sessionId }: { errorTitle: string; refresh?: QueryKey; sessionId?: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetTicket(orderId, sessionId),
    onSuccess: async ({ message }) => {
      toast({ title: 'Ingresso resetado', description: message });
      if (refresh) await queryClient.invalidateQueries({ queryKey: refresh });
    },
    onError: (error) => toastError(errorTitle, error),
  });
}
