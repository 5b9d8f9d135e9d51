import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createCourtesyLinkSchema,
  type CourtesyEventTicketTypes,
  type CourtesyLinkView,
  type CreateCourtesyLink,
  type EventView,
} from '@ticketing/proto';
import {
  api,
  Button,
  formatShortDate,
  SelectField,
  TextField,
  toast,
  toastError,
  useFailureToast,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { ticketTypeLabel, ticketTypesKey } from './ticket-types.ts';

/** "49,90", "1.234,56" or "49.90" as typed; empty is a free link (null), anything else unreadable is NaN. */
function typedPrice(typed: unknown): number | null {
  if (typeof typed !== 'string') return typeof typed === 'number' ? typed : null;
  const text = typed.trim().replace(/^R\$\s*/, '');
  if (!text) return null;
  return Number(text.includes(',') ? text.replace(/\./g, '').replace(',', '.') : text);
}

/**
 * The creation card: event, the type its tickets are of (the event's first by default; hidden types too, which only
 * such links sell), number of tickets and, for a promotional link, the price that replaces the type's.
 */
export function CreateLinkCard({ onCreated }: { onCreated(): void }) {
  const queryClient = useQueryClient();
  const events = useQuery<EventView[]>({ queryKey: ['events'] });
  useFailureToast(events.error, 'Erro');
  const form = useZodForm(createCourtesyLinkSchema, {
    defaultValues: { eventId: '', ticketTypeId: undefined, ticketCount: 1, overridePrice: null },
  });
  const eventId = form.watch('eventId');
  const types = useQuery<CourtesyEventTicketTypes>({ queryKey: ticketTypesKey(eventId), enabled: Boolean(eventId) });
  useFailureToast(types.error, 'Erro');
  const firstTypeId = eventId ? types.data?.ticketTypes[0]?.id : undefined;
  // Another event, another list: its first type is chosen until the manager picks one.
  const { setValue } = form;
  useEffect(() => setValue('ticketTypeId', firstTypeId), [setValue, firstTypeId]);

  const create = useMutation({
    mutationFn: (link: CreateCourtesyLink) =>
      api<CourtesyLinkView>('/courtesy-links', {
        method: 'POST',
        // The schema yields the price as a decimal string; the API takes the number.
        body: { ...link, overridePrice: link.overridePrice === null ? null : Number(link.overridePrice) },
      }),
    onSuccess: async () => {
      toast({
        title: 'Link criado com sucesso!',
        description: 'O link de cortesia foi gerado e está pronto para uso.',
      });
      form.reset();
      onCreated();
      // The list goes back to page 1, where the new link is: every page is stale, only page 1 is fetched now.
      await queryClient.invalidateQueries({ queryKey: ['courtesy-links'], refetchType: 'none' });
      await queryClient.refetchQueries({ queryKey: ['courtesy-links', { page: 1 }] }, { cancelRefetch: false });
    },
    onError: (error) => toastError('Erro ao criar link', error),
  });

  const submit = form.handleSubmit(
    (link) => create.mutate(link),
    (invalid) => {
      if (invalid.eventId) {
        toast({
          title: 'Selecione um evento',
          description: 'Por favor, selecione um evento para o link de cortesia',
          variant: 'destructive',
        });
      }
    },
  );

  const noEvents = events.data?.length === 0;
  return (
    <section className="card create-link" aria-labelledby="create-link-title">
      <h2 id="create-link-title" className="create-link__title">
        Criar novo link
      </h2>
      <form onSubmit={submit} noValidate>
        <SelectField
          label="Evento"
          hint={
            events.isError
              ? 'Não foi possível carregar os eventos.'
              : noEvents
                ? 'Nenhum evento futuro disponível.'
                : undefined
          }
          disabled={!events.data}
          {...form.field('eventId')}
        >
          <option value="">{events.isPending ? 'Carregando eventos...' : 'Selecione um evento'}</option>
          {events.data?.map((event) => (
            <option key={event.id} value={event.id}>
              {event.title} — {formatShortDate(event.date)}
            </option>
          ))}
        </SelectField>
        {events.isError && (
          <Button
            variant="outline"
            size="sm"
            className="create-link__retry"
            loading={events.isFetching}
            onClick={() => events.refetch()}
          >
            Carregar eventos novamente
          </Button>
        )}
        <SelectField
          label="Tipo de ingresso"
          hint={
            types.isError
              ? 'Não foi possível carregar os tipos de ingresso.'
              : 'Os tipos ocultos só são vendidos por links como este.'
          }
          disabled={!eventId || !types.data}
          {...form.field('ticketTypeId', { setValueAs: (value: unknown) => value || undefined })}
        >
          {!types.data && (
            <option value="">{eventId && types.isPending ? 'Carregando tipos...' : 'Selecione um evento antes'}</option>
          )}
          {types.data?.ticketTypes.map((type) => (
            <option key={type.id} value={type.id}>
              {ticketTypeLabel(type)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Quantidade de ingressos"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          step={1}
          hint="De 1 a 100 ingressos por link."
          {...form.field('ticketCount', { valueAsNumber: true })}
        />
        <TextField
          label="Preço promocional (opcional)"
          inputMode="decimal"
          placeholder="Ex.: 49,90"
          autoComplete="off"
          hint="Em branco, a cortesia é gratuita. Com um preço, o código é usado na compra e substitui o preço do evento."
          {...form.field('overridePrice', { setValueAs: typedPrice })}
        />
        <Button type="submit" block loading={create.isPending}>
          Criar link
        </Button>
      </form>
    </section>
  );
}
