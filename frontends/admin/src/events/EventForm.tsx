import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@ticketing/shared/router';
import type { AdminCreateEvent, AdminEventView } from '@ticketing/proto';
import {
  Button,
  buttonClass,
  Checkbox,
  isApiError,
  OFFLINE_MESSAGE,
  TextField,
  toast,
  toastError,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { eventFormSchema, formValuesOf, NEW_EVENT, typedCapacity, type EventFormValues } from './event-form.ts';
import { ImageField, imageProblem } from './ImageField.tsx';
import { InstallmentsField } from './InstallmentsField.tsx';
import { PriceField } from './PriceField.tsx';
import { createEvent, editEvent, uploadImage } from './save-event.ts';
import { SessionsField } from './SessionsField.tsx';
import { settlePrices, TicketTypesField } from './TicketTypesField.tsx';
import { storeAdminEvent } from './queries.ts';
import { TextArea } from '../lib/TextArea.tsx';

const messageOf = (error: unknown) => (isApiError(error) ? error.message : OFFLINE_MESSAGE);

/**
 * A new event (`event` absent) or an existing one. The fields are checked with the API's own schema; what only the
 * server can judge (a date already past, a capacity below the spots taken) comes back as its message, shown above
 * the buttons. A picked image is sent once the event is saved. A cancelled event is shown, no longer edited.
 */
export function EventForm({ event }: { event?: AdminEventView }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useZodForm(eventFormSchema, {
    defaultValues: event ? formValuesOf(event) : NEW_EVENT,
  });
  const { dirtyFields, isSubmitting } = form.formState;
  const typed = (form.watch('ticketTypes')?.length ?? 0) > 0;
  const [image, setImage] = useState<File | null>(null);
  const imageError = image ? imageProblem(image) : undefined;
  const [failure, setFailure] = useState<string>();
  const failureBox = useRef<HTMLDivElement>(null);
  const cancelled = Boolean(event?.cancelledAt);
  useEffect(() => {
    if (failure) failureBox.current?.focus();
  }, [failure]);

  async function saveFields(values: AdminCreateEvent): Promise<AdminEventView | undefined> {
    if (!event) return createEvent(values);
    const changed = (Object.keys(dirtyFields) as (keyof EventFormValues)[]).filter((field) => dirtyFields[field]);
    return changed.length > 0 ? editEvent(event.id, values, changed) : undefined;
  }

  const submit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    if (imageError) return setFailure(imageError);
    if (event && Object.keys(dirtyFields).length === 0 && !image) {
      toast({ title: 'Nada para salvar', description: 'Nenhum campo foi alterado.' });
      return;
    }
    let saved: AdminEventView;
    try {
      saved = (await saveFields(values)) ?? event!;
    } catch (error) {
      return setFailure(messageOf(error));
    }
    storeAdminEvent(queryClient, saved);
    form.reset(formValuesOf(saved));
    if (image) {
      try {
        saved = await uploadImage(saved.id, image);
        storeAdminEvent(queryClient, saved);
        setImage(null);
      } catch (error) {
        toastError('Imagem não enviada', error);
        setFailure(`O evento foi salvo, mas a imagem não foi enviada: ${messageOf(error)}`);
      }
    }
    toast(
      event
        ? { title: 'Evento salvo', description: 'As alterações foram gravadas.' }
        : {
            title: 'Evento criado',
            description: saved.published ? 'O evento já está na loja.' : 'Salvo como rascunho.',
          },
    );
    if (!event) navigate(`/admin/eventos/${saved.id}`, { replace: true });
  });
  const send = (formEvent: FormEvent<HTMLFormElement>) => {
    settlePrices(form);
    return submit(formEvent);
  };

  return (
    <form className="card event-form" onSubmit={send} noValidate aria-label={event ? 'Editar evento' : 'Novo evento'}>
      <fieldset className="event-form__fields" disabled={cancelled}>
        <TextField label="Título" autoComplete="off" maxLength={255} {...form.field('title')} />
        <TextArea label="Descrição" rows={6} maxLength={20000} {...form.field('description')} />
        <SessionsField form={form} />
        <TextField label="Local" autoComplete="off" maxLength={255} {...form.field('location')} />
        <div className="field-row event-form__pair">
          {!typed && <PriceField hint="Use 0 para um evento gratuito." {...form.field('price')} />}
          <TextField
            label="Capacidade"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            hint={
              event
                ? `Em branco, sem limite. Já vendidos: ${event.sold}; reservados: ${event.held}.`
                : 'Número máximo de participantes; em branco, sem limite.'
            }
            {...form.field('maxAttendees', { setValueAs: typedCapacity })}
          />
        </div>
        <TicketTypesField form={form} known={event?.adminTicketTypes ?? []} />
        <InstallmentsField form={form} />
        <fieldset className="event-form__visibility">
          <legend className="field__label">Visibilidade</legend>
          <Checkbox label="Publicado: aparece na loja e fica à venda" {...form.field('published')} />
          <Checkbox
            label="Listado na página de eventos (desmarcado, só quem tem o link encontra)"
            {...form.field('listed')}
          />
        </fieldset>
        <ImageField
          current={event?.imageUrl ?? null}
          file={image}
          onPick={(file) => {
            setImage(file);
            setFailure(undefined);
          }}
          error={imageError}
        />
      </fieldset>
      {failure && (
        <div ref={failureBox} className="event-form__failure" role="alert" tabIndex={-1}>
          {failure}
        </div>
      )}
      <div className="event-form__actions">
        {!cancelled && (
          <Button type="submit" loading={isSubmitting}>
            {event ? 'Salvar alterações' : 'Criar evento'}
          </Button>
        )}
        <Link to="/admin/eventos" className={buttonClass('outline')}>
          Voltar para a lista
        </Link>
      </div>
    </form>
  );
}
