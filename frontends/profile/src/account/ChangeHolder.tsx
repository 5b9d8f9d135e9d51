import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Holder, OrderItemView, OrderView } from '@ticketing/proto';
import { api, Button, cpfMask, TextField, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { holderFormSchema } from './holder-form.ts';
import { ordersQueryKey, type OrdersPage } from './order-labels.ts';

/**
 * 'Trocar titular': the buyer hands one ticket of a paid order to someone else. The ticket is issued again to the new
 * holder and the QR code before stops working; the order as the server answers it replaces the one listed.
 */
export function ChangeHolder({ order, item }: { order: OrderView; item: OrderItemView }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const form = useZodForm(holderFormSchema(item.requiresDocument), { defaultValues: { name: '', email: '', cpf: '' } });
  const change = useMutation({
    mutationFn: (holder: Holder) =>
      api<{ message: string; order: OrderView }>(`/orders/${order.id}/items/${item.index}/holder`, {
        method: 'PUT',
        body: holder,
      }),
    onSuccess: (answer) => {
      setOpen(false);
      form.reset();
      toast({ title: 'Titular alterado', description: answer.message });
      queryClient.setQueriesData<OrdersPage>(
        { queryKey: ordersQueryKey },
        (page) => page && { ...page, orders: page.orders.map((each) => (each.id === order.id ? answer.order : each)) },
      );
    },
    onError: (error) => toastError('Erro ao trocar titular', error),
  });
  const ticket = `Ingresso ${item.index + 1} · ${item.typeName}`;

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Trocar titular do ingresso ${item.index + 1}`}>
          Trocar titular
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Trocar titular"
        description={`${ticket}, hoje em nome de ${item.holderName}. O novo titular recebe o ingresso por e-mail e o QR Code atual deixa de valer.`}
      >
        <form className="stack holder-form" noValidate onSubmit={form.handleSubmit((holder) => change.mutate(holder))}>
          <TextField label="Nome do titular" autoComplete="off" {...form.field('name')} />
          <TextField label="E-mail do titular" type="email" autoComplete="off" {...form.field('email')} />
          {item.requiresDocument && (
            <TextField
              label="CPF do titular"
              mask={cpfMask}
              hint={`O ingresso ${item.typeName} exige documento na entrada.`}
              {...form.field('cpf')}
            />
          )}
          <ConfirmActions keep="Voltar" confirm="Trocar titular" variant="primary" loading={change.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
