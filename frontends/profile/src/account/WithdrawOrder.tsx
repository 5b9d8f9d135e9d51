import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WITHDRAWAL_DAYS, type OrderView, type RefundAnswer } from '@ticketing/proto';
import { api, Button, formatBRL, toast, toastError } from '@ticketing/shared';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { ordersQueryKey } from './order-labels.ts';

/**
 * The buyer's right of withdrawal (CDC art. 49) on a paid order the server says may still be withdrawn from:
 * explained and confirmed in a dialog, then the money goes back and the ticket is cancelled.
 */
export function WithdrawOrder({ order }: { order: OrderView }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const withdraw = useMutation({
    mutationFn: () => api<RefundAnswer>(`/orders/${order.id}/withdraw`, { method: 'POST' }),
    onSuccess: ({ message }) => {
      setConfirming(false);
      toast({ title: 'Reembolso solicitado', description: message });
      return queryClient.invalidateQueries({ queryKey: ordersQueryKey });
    },
    onError: (error) => toastError('Erro ao solicitar reembolso', error),
  });

  return (
    <Dialog open={confirming} onOpenChange={setConfirming}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="order-card__cancel">
          Solicitar reembolso (arrependimento)
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Desistir da compra?"
        description={`Pelo Código de Defesa do Consumidor (art. 49), você pode desistir de uma compra feita pela internet em até ${WITHDRAWAL_DAYS} dias após o pagamento, antes do início do evento.`}
      >
        <p className="withdraw__consequence">
          O valor de <strong className="numeric">{formatBRL(order.amount)}</strong> volta para a mesma forma de
          pagamento e o ingresso do pedido nº {order.orderNumber} é cancelado: ele deixa de dar acesso a{' '}
          {order.event.title}. Esta ação não pode ser desfeita.
        </p>
        <ConfirmActions keep="Manter ingresso" confirm="Sim, solicitar reembolso" action={withdraw} />
      </DialogContent>
    </Dialog>
  );
}
