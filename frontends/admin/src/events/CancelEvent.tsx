import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelEventSchema,
  type AdminEventView,
  type CancelEvent as CancelEventInput,
  type CancelEventAnswer,
} from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { adminEventKey, storeAdminEvent } from './queries.ts';
import { TextArea } from '../lib/TextArea.tsx';

const WARNING =
  'Todos os pedidos pagos serão reembolsados e os participantes receberão um e-mail. Esta ação não pode ser desfeita.';

/** 'Cancelar evento': for good, once confirmed with a reason the holders will read. */
export function CancelEvent({ event }: { event: AdminEventView }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const form = useZodForm(cancelEventSchema, { defaultValues: { reason: '' } });
  const cancel = useMutation({
    mutationFn: (input: CancelEventInput) =>
      api<CancelEventAnswer>(`/admin/events/${event.id}/cancel`, { method: 'POST', body: input }),
    onSuccess: ({ message, event: cancelled }) => {
      storeAdminEvent(queryClient, cancelled);
      setOpen(false);
      toast({ title: 'Evento cancelado', description: message });
    },
    onError: (error) => {
      toastError('Erro ao cancelar evento', error);
      // Someone else may have cancelled it meanwhile: show what the server holds now.
      void queryClient.invalidateQueries({ queryKey: adminEventKey(event.id) });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" size="sm">
          Cancelar evento
        </Button>
      </DialogTrigger>
      <DialogContent title={`Cancelar ${event.title}?`} description={WARNING}>
        <form className="event-cancel" onSubmit={form.handleSubmit((input) => cancel.mutate(input))} noValidate>
          <TextArea
            label="Motivo do cancelamento"
            hint="Os participantes receberão este motivo no e-mail."
            rows={4}
            maxLength={500}
            required
            {...form.field('reason')}
          />
          <ConfirmActions keep="Voltar" confirm="Cancelar evento" loading={cancel.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
