import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createCouponSchema,
  type AdminEventView,
  type CouponView,
  type CreateCoupon,
  type EventView,
} from '@ticketing/proto';
import {
  api,
  Button,
  Checkbox,
  formatShortDate,
  SelectField,
  TextField,
  toast,
  toastError,
  useFailureToast,
} from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { adminEventKey } from '../events/queries.ts';
import {
  discountMessage,
  NEW_COUPON,
  saoPauloInstant,
  typedAmount,
  typedCount,
  typedEventId,
  type DiscountKind,
} from './coupon-form.ts';
import { COUPONS_KEY, couponPageKey } from './queries.ts';

/** The types of the chosen event, as checkboxes: none checked is every type. */
function TicketTypeChoices({
  eventId,
  chosen,
  error,
  onChange,
}: {
  eventId: string;
  chosen: string[];
  error: string | undefined;
  onChange(ids: string[]): void;
}) {
  const event = useQuery<AdminEventView>({ queryKey: adminEventKey(eventId) });
  useFailureToast(event.error, 'Erro ao carregar os tipos de ingresso');
  const types = event.data?.adminTicketTypes ?? [];
  return (
    <fieldset className="coupon-form__types" aria-describedby="coupon-types-hint">
      <legend className="field__label">Tipos de ingresso</legend>
      <p id="coupon-types-hint" className="field__hint">
        {event.isPending
          ? 'Carregando tipos de ingresso...'
          : event.isError
            ? 'Não foi possível carregar os tipos de ingresso.'
            : 'Nenhum marcado: o desconto vale para todos os tipos do evento.'}
      </p>
      {types.map((type) => (
        <Checkbox
          key={type.id}
          label={type.hidden ? `${type.name} (oculto)` : type.name}
          checked={chosen.includes(type.id)}
          onChange={(change) =>
            onChange(change.target.checked ? [...chosen, type.id] : chosen.filter((id) => id !== type.id))
          }
        />
      ))}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * 'Novo cupom': its code, the event it is good for (or every event), the discount (a percentage or an amount, one
 * of them), how many orders may use it, when it is good (São Paulo's time) and, for one event, which of its types.
 */
export function CreateCouponCard({ onCreated }: { onCreated(): void }) {
  const queryClient = useQueryClient();
  const events = useQuery<EventView[]>({ queryKey: ['events'] });
  useFailureToast(events.error, 'Erro ao carregar os eventos');
  const form = useZodForm(createCouponSchema, { defaultValues: NEW_COUPON });
  const [kind, setKind] = useState<DiscountKind>('percent');
  const eventId = form.watch('eventId') ?? '';
  const ticketTypeIds = form.watch('ticketTypeIds') ?? [];
  const { errors } = form.formState;

  const create = useMutation({
    mutationFn: (coupon: CreateCoupon) => api<CouponView>('/coupons', { method: 'POST', body: coupon }),
    onSuccess: async (coupon) => {
      toast({ title: 'Cupom criado', description: `O cupom ${coupon.code} já pode ser usado na compra.` });
      form.reset(NEW_COUPON);
      setKind('percent');
      onCreated();
      // The new coupon heads page 1: every page is stale, only page 1 is read now.
      await queryClient.invalidateQueries({ queryKey: COUPONS_KEY, refetchType: 'none' });
      await queryClient.refetchQueries({ queryKey: couponPageKey(1) }, { cancelRefetch: false });
    },
    onError: (error) => toastError('Erro ao criar cupom', error),
  });

  function chooseKind(next: DiscountKind) {
    setKind(next);
    // One of them only: the other is cleared.
    form.setValue(next === 'percent' ? 'amountOff' : 'percentOff', null);
    form.clearErrors(['percentOff', 'amountOff']);
  }

  return (
    <section className="card coupon-form" aria-labelledby="coupon-form-title">
      <h2 id="coupon-form-title" className="coupon-form__title">
        Novo cupom
      </h2>
      <form onSubmit={form.handleSubmit((coupon) => create.mutate(coupon))} noValidate>
        <TextField
          label="Código"
          autoComplete="off"
          maxLength={40}
          placeholder="Ex.: FARMA10"
          hint="De 3 a 40 letras, números, - ou _. O comprador digita este código na compra."
          {...form.field('code')}
        />
        <SelectField
          label="Evento"
          hint={events.isError ? 'Não foi possível carregar os eventos.' : undefined}
          {...form.field('eventId', {
            setValueAs: typedEventId,
            // Another event, other types: none chosen.
            onChange: () => form.setValue('ticketTypeIds', []),
          })}
        >
          <option value="">Todos os eventos</option>
          {events.data?.map((event) => (
            <option key={event.id} value={event.id}>
              {event.title} — {formatShortDate(event.date)}
            </option>
          ))}
        </SelectField>
        {eventId && (
          <TicketTypeChoices
            eventId={eventId}
            chosen={ticketTypeIds}
            error={errors.ticketTypeIds?.message}
            onChange={(ids) => form.setValue('ticketTypeIds', ids, { shouldDirty: true })}
          />
        )}
        <fieldset className="coupon-form__discount">
          <legend className="field__label">Desconto</legend>
          <div className="coupon-form__kinds" role="radiogroup" aria-label="Tipo de desconto">
            <label className="coupon-form__kind">
              <input
                type="radio"
                name="discount-kind"
                checked={kind === 'percent'}
                onChange={() => chooseKind('percent')}
              />
              Percentual (%)
            </label>
            <label className="coupon-form__kind">
              <input
                type="radio"
                name="discount-kind"
                checked={kind === 'amount'}
                onChange={() => chooseKind('amount')}
              />
              Valor fixo (R$)
            </label>
          </div>
          {kind === 'percent' ? (
            <TextField
              key="percent"
              label="Percentual de desconto (%)"
              inputMode="numeric"
              autoComplete="off"
              placeholder="Ex.: 10"
              hint="De 1 a 100% do valor dos ingressos; a taxa de conveniência não tem desconto."
              {...form.field('percentOff', { setValueAs: typedCount })}
              error={discountMessage(errors)}
            />
          ) : (
            <TextField
              key="amount"
              label="Valor do desconto (R$)"
              inputMode="decimal"
              autoComplete="off"
              placeholder="Ex.: 25,00"
              hint="Nunca mais que o valor dos ingressos; a taxa de conveniência não tem desconto."
              {...form.field('amountOff', { setValueAs: typedAmount })}
              error={discountMessage(errors)}
            />
          )}
        </fieldset>
        <TextField
          label="Limite de usos"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="Quantos pedidos podem usar o cupom; em branco, sem limite."
          {...form.field('maxUses', { setValueAs: typedCount })}
        />
        <div className="field-row coupon-form__pair">
          <TextField
            label="Válido a partir de"
            type="datetime-local"
            hint="Horário de Brasília; em branco, desde já."
            {...form.field('startsAt', { setValueAs: saoPauloInstant })}
          />
          <TextField
            label="Válido até"
            type="datetime-local"
            hint="Horário de Brasília; em branco, sem prazo."
            {...form.field('endsAt', { setValueAs: saoPauloInstant })}
          />
        </div>
        <Button type="submit" block loading={create.isPending}>
          Criar cupom
        </Button>
      </form>
    </section>
  );
}
