import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ParticipantView, TicketResendView } from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';

/** 'Reenviar ingresso': the holder lost the e-mail; it goes again, once confirmed, to the address on the ticket. */
export function ResendTicket({ ticket }: { ticket: ParticipantView }) {
  const [open, setOpen] = useState(false);
  const resend = useMutation({
    mutationFn: () =>
      api<TicketResendView>(`/admin/tickets/${encodeURIComponent(ticket.ticketId)}/resend`, { method: 'POST' }),
    onSuccess: ({ message }) => {
      setOpen(false);
      toast({ title: 'Ingresso reenviado', description: message });
    },
    onError: (error) => toastError('Erro ao reenviar ingresso', error),
  });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Reenviar ingresso de ${ticket.holderName}`}>
          Reenviar ingresso
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Reenviar ingresso?"
        description={`O e-mail com o ingresso de ${ticket.holderName} (pedido nº ${ticket.orderNumber}) será enviado novamente para ${ticket.holderEmail}.`}
      >
        <ConfirmActions keep="Cancelar" confirm="Reenviar" action={resend} variant="primary" />
      </DialogContent>
    </Dialog>
  );
}
