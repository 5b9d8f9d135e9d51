import { useQueryClient } from '@tanstack/react-query';
import { refundOrderSchema, type AdminOrderAnswer, type RefundAnswer } from '@ticketing/proto';
import { formatBRL, paymentMethodOf, toast } from '@ticketing/shared';
import { ReasonDialog } from '../lib/ReasonDialog.tsx';
import { refreshAfterRefund } from './queries.ts';

type AdminOrder = AdminOrderAnswer['order'];

const warningFor = (order: AdminOrder) =>
  `${formatBRL(order.amount)} voltam para ${order.buyer.name} pela mesma forma de pagamento (${paymentMethodOf(order)}). ` +
  'O ingresso é cancelado e não permite mais a entrada, e o comprador recebe um e-mail. Esta ação não pode ser desfeita.';

/**
 * 'Reembolsar pedido': the whole amount goes back once confirmed with a reason kept on the order. A refusal (a
 * courtesy has nothing to give back; someone refunded it meanwhile) is the server's own message, in the dialog.
 * The same dialog as 'Cancelar evento', with its own words and answer.
 */
export function RefundOrder({ order }: { order: AdminOrder }) {
  const queryClient = useQueryClient();
  return (
    <ReasonDialog<RefundAnswer>
      trigger="Reembolsar pedido"
      title={`Reembolsar o pedido ${order.orderNumber}?`}
      warning={warningFor(order)}
      schema={refundOrderSchema}
      label="Motivo do reembolso"
      hint="Fica registrado no histórico do pedido. De 3 a 500 caracteres."
      confirm="Reembolsar"
      path={`/admin/orders/${order.id}/refund`}
      onDone={({ message }) => toast({ title: 'Reembolso solicitado', description: message })}
      // Refunded or refused, the order on screen may be out of date: read it again.
      onSettled={() => refreshAfterRefund(queryClient, order.id)}
    />
  );
}
