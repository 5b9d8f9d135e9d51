import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast, toastError } from '@ticketing/shared';
import { resetTicket } from './server.ts';

/**
 * 'Resetar Ingresso' wherever it is offered: the order's used ticket may be read at the door once more; the list
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
