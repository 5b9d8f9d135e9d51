import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOrderAnswer, RefundAttentionRow, RefundStatus } from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { refreshAfterRefund } from '../orders/queries.ts';
import { REFUNDS_ATTENTION_KEY } from './queries.ts';

/** What the provider did with the refund asked again, as the toast tells it. */
const OUTCOMES: Record<RefundStatus, { title: string; description: string; variant?: 'destructive' }> = {
  requested: { title: 'Reembolso solicitado', description: 'O provedor aceitou o pedido de estorno.' },
  refunded: { title: 'Reembolso concluído', description: 'O valor voltou para o comprador.' },
  awaiting_bank_details: {
    title: 'Reembolso aguardando dados bancários',
    description: 'O comprador recebe um link para informar a conta que recebe o valor.',
  },
  refused: {
    title: 'O provedor recusou de novo',
    description: 'Veja o motivo na lista e tente mais tarde.',
    variant: 'destructive',
  },
};

/** 'Tentar novamente': the refund is asked of the provider again; the list and the order are read again after. */
export function RetryRefund({ refund }: { refund: RefundAttentionRow }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => api<AdminOrderAnswer>(`/admin/orders/${refund.orderId}/refund/retry`, { method: 'POST' }),
    onSuccess: ({ order }) => {
      const outcome = order.refund ? OUTCOMES[order.refund.status] : OUTCOMES.requested;
      toast({ ...outcome, description: `Pedido ${order.orderNumber}: ${outcome.description}` });
    },
    onError: (error) => toastError(`Erro ao reembolsar o pedido ${refund.orderNumber}`, error),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: REFUNDS_ATTENTION_KEY });
      refreshAfterRefund(queryClient, refund.orderId);
    },
  });
  return (
    <Button
      variant="outline"
      size="sm"
      loading={retry.isPending}
      aria-label={`Tentar novamente o reembolso do pedido ${refund.orderNumber}`}
      onClick={() => retry.mutate()}
    >
      Tentar novamente
    </Button>
  );
}
