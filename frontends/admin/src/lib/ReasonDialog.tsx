import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { cancelEventSchema } from '@ticketing/proto';
import { api, Button, isApiError, OFFLINE_MESSAGE } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { ConfirmActions, Dialog, DialogContent, DialogTrigger } from '@ticketing/shared/primitives';
import { TextArea } from './TextArea.tsx';

/** Every reason is checked alike (3 to 500 characters), each with its own messages. */
type ReasonSchema = typeof cancelEventSchema;

interface ReasonDialogProps<Answer> {
  /** The button that opens the dialog. */
  trigger: string;
  title: string;
  /** What happens, and that it cannot be undone. */
  warning: string;
  schema: ReasonSchema;
  /** The reason's label, and where it goes. */
  label: string;
  hint: string;
  /** The button that goes ahead. */
  confirm: string;
  /** Where the reason is sent (POST). */
  path: string;
  /** What the answer changes on screen; then the dialog closes. */
  onDone(answer: Answer): void;
  /** A refusal; without it, the dialog shows the server's words under the reason. */
  onRefused?(error: Error): void;
  onSettled?(): void;
}

/** A step that cannot be undone ('Cancelar evento', 'Reembolsar pedido'), confirmed with a reason. */
export function ReasonDialog<Answer>(props: ReasonDialogProps<Answer>) {
  const { trigger, title, warning, schema, label, hint, confirm, path, onRefused } = props;
  const [open, setOpen] = useState(false);
  const form = useZodForm(schema, { defaultValues: { reason: '' } });
  const send = useMutation({
    mutationFn: (input: { reason: string }) => api<Answer>(path, { method: 'POST', body: input }),
    onSuccess: (answer) => {
      props.onDone(answer);
      setOpen(false);
    },
    onError: onRefused,
    onSettled: props.onSettled,
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          form.reset();
          send.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" size="sm">
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent title={title} description={warning}>
        <form onSubmit={form.handleSubmit((input) => send.mutate(input))} noValidate>
          <TextArea label={label} hint={hint} rows={4} maxLength={500} required {...form.field('reason')} />
          {send.error && !onRefused && (
            <p className="reason-dialog__refusal" role="alert">
              {isApiError(send.error) ? send.error.message : OFFLINE_MESSAGE}
            </p>
          )}
          <ConfirmActions keep="Voltar" confirm={confirm} loading={send.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
