import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './api/client.ts';
import { toast, toastError } from './ui/toast.ts';

/** An admin lets a used ticket in again; a refused session is an error to show, never a trip to /login mid-queue. */
const resetTicket = (orderId: string) =>
  api<{ message: string }>(`/reset-ticket/${encodeURIComponent(orderId)}`, { method: 'POST', keepSessionOn401: true });

/**
 * 'Resetar Ingresso' wherever it is offered (the door, the participants' list): the order's used ticket may be read at the door once more; the list
 * that showed it (`refresh`) is read again.
 */
export function useResetTicket(orderId: string, { errorTitle, refresh }: { errorTitle: string; refresh?: QueryKey }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resetTicket(orderId),
    onSuccess: async ({ message }) => {
      toast({ title: 'Ingresso resetado', description: message });
      if (refresh) await queryClient.invalidateQueries({ queryKey: refresh });
    },
    onError: (error) => toastError(errorTitle, error),
  });
}
