import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CourtesyLinkView } from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';

/** Deactivating takes two steps: the button, then the confirmation in a dialog. */
export function DeactivateLink({ link }: { link: CourtesyLinkView }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: () => api<CourtesyLinkView>(`/courtesy-links/${link.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setOpen(false);
      toast({ title: 'Link desativado', description: `O código ${link.code} não pode mais ser usado.` });
      await queryClient.invalidateQueries({ queryKey: ['courtesy-links'] });
    },
    onError: (error) => toastError('Erro ao desativar link', error),
  });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" className="link-card__deactivate">
          Desativar
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Desativar link de cortesia?"
        description={`O código ${link.code} deixará de ser aceito. Os ingressos já emitidos com ele continuam válidos, e as vagas reservadas que não foram usadas voltam para o evento.`}
      >
        <ConfirmActions keep="Cancelar" confirm="Desativar link" action={deactivate} />
      </DialogContent>
    </Dialog>
  );
}
