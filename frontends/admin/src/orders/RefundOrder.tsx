import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  refundOrderSchema,
  type AdminOrderAnswer,
  type RefundAnswer,
  type RefundOrder as RefundOrderInput,
} from '@ticketing/proto';
import { api, Button, formatBRL, isApiError, OFFLINE_MESSAGE, paymentMethodOf, toast } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { TextArea } from '../lib/TextArea.tsx';
import { refreshAfterRefund } from './queries.ts';

type AdminOrder = AdminOrderAnswer['order'];

const warningFor = (order: AdminOrder) =>
  `${formatBRL(order.amount)} voltam para ${order.buyer.name} pela mesma forma de pagamento (${paymentMethodOf(order)}). ` +
  'O ingresso é cancelado e não permite mais a entrada, e o comprador recebe um e-mail. Esta ação não pode ser desfeita.';

/**
 * 'Reembolsar pedido': the whole amount goes back once confirmed with a reason kept on the order. A refusal (a
 * courtesy has nothing to give back; someone refunded it meanwhile) is the server's own message, in the dialog.
 * Built as 'Cancelar evento' is (a reason, then a step that cannot be undone), for another owner and other views.
 */
export function RefundOrder({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const form = useZodForm(refundOrderSchema, { defaultValues: { reason: '' } });
  const refund = useMutation({
    mutationFn: (input: RefundOrderInput) =>
      api<RefundAnswer>(`/admin/orders/${order.id}/refund`, { method: 'POST', body: input }),
    onSuccess: ({ message }) => {
      setOpen(false);
      toast({ title: 'Reembolso solicitado', description: message });
    },
    // Refunded or refused, the order on screen may be out of date: read it again.
    onSettled: () => refreshAfterRefund(queryClient, order.id),
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          form.reset();
          refund.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" size="sm">
          Reembolsar pedido
        </Button>
      </DialogTrigger>
      <DialogContent title={`Reembolsar o pedido ${order.orderNumber}?`} description={warningFor(order)}>
        <form className="order-refund" onSubmit={form.handleSubmit((input) => refund.mutate(input))} noValidate>
          <TextArea
            label="Motivo do reembolso"
            hint="Fica registrado no histórico do pedido. De 3 a 500 caracteres."
            rows={4}
            maxLength={500}
            required
            {...form.field('reason')}
          />
          {refund.error && (
            <p className="order-refund__refusal" role="alert">
              {isApiError(refund.error) ? refund.error.message : OFFLINE_MESSAGE}
            </p>
          )}
          <ConfirmActions keep="Voltar" confirm="Reembolsar" loading={refund.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
