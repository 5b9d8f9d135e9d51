import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderView } from '@ticketing/proto';
import { api, Button, errorTitles, toast, toastError } from '@ticketing/shared';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { ordersQueryKey } from './order-labels.ts';

/** A pending order with a charge: ask the provider again whether it was paid, or give it up (confirmed twice). */
export function PendingOrderActions({ order }: { order: OrderView }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ordersQueryKey });

  const check = useMutation({
    mutationFn: () => api<{ message: string }>(`/orders/${order.id}/check-status`, { method: 'POST' }),
    onSuccess: ({ message }) => {
      toast({ title: 'Status do pagamento', description: message });
      return refresh();
    },
    onError: (error) => toastError('Erro ao verificar status do pagamento', error),
  });

  const cancel = useMutation({
    mutationFn: () => api<{ message: string }>(`/orders/${order.id}/cancel`, { method: 'DELETE' }),
    onSuccess: ({ message }) => {
      setConfirming(false);
      toast({ title: message });
      return refresh();
    },
    onError: (error) => toastError(errorTitles.cancel, error),
  });

  return (
    <div className="order-card__actions">
      <Button variant="outline" size="sm" loading={check.isPending} onClick={() => check.mutate()}>
        Verificar pagamento
      </Button>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogTrigger asChild>
          <Button variant="ghost" size="sm" className="order-card__cancel">
            Cancelar pedido
          </Button>
        </DialogTrigger>
        <DialogContent
          title="Cancelar pedido?"
          description={`O pedido nº ${order.orderNumber} de ${order.event.title} será cancelado e a vaga liberada. Esta ação não pode ser desfeita.`}
        >
          <ConfirmActions keep="Manter pedido" confirm="Sim, cancelar pedido" action={cancel} />
        </DialogContent>
      </Dialog>
    </div>
  );
}
