import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderView } from '@ticketing/proto';
import { api, Button, formatDateTime, toast, toastError } from '@ticketing/shared';
import { ordersQueryKey, ticketFileName, type OrdersPage } from './order-labels.ts';
import { TicketCode } from './TicketCode.tsx';

/** A paid order's ticket: its QR code to show at the door or download, and, for admins, a reset once used. */
export function OrderTicket({ order, isAdmin }: { order: OrderView; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () => api<{ message: string }>(`/reset-ticket/${order.id}`, { method: 'POST' }),
    onSuccess: ({ message }) => {
      toast({ title: 'Ingresso resetado', description: message });
      // The door already accepts it again; the orders list hears of it a moment later, so it is updated here.
      queryClient.setQueriesData<OrdersPage>(
        { queryKey: ordersQueryKey },
        (page) =>
          page && {
            ...page,
            orders: page.orders.map((each) =>
              each.id === order.id ? { ...each, qrCodeUsed: false, qrCodeUsedAt: null } : each,
            ),
          },
      );
    },
    onError: (error) => toastError('Erro ao resetar ticket', error),
  });

  if (!order.qrCodeData) {
    return (
      <p className="order-ticket__pending" role="status">
        Seu ingresso está sendo emitido e também chegará por e-mail.
      </p>
    );
  }
  return (
    <TicketCode
      qrCodeData={order.qrCodeData}
      alt={`QR Code do ingresso do pedido nº ${order.orderNumber}`}
      fileName={ticketFileName(order)}
      used={
        order.qrCodeUsed ? `Utilizado${order.qrCodeUsedAt ? ` em ${formatDateTime(order.qrCodeUsedAt)}` : ''}` : null
      }
      hint="Apresente este QR Code na entrada do evento."
    >
      {isAdmin && order.qrCodeUsed && (
        <Button variant="destructive" size="sm" loading={reset.isPending} onClick={() => reset.mutate()}>
          Resetar Ingresso
        </Button>
      )}
    </TicketCode>
  );
}
