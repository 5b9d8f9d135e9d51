import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { fiscalMessages, fiscalSettingsSchema, type FiscalSettings, type FiscalSettingsAnswer } from '@ticketing/proto';
import { api, Button, Checkbox, formatDateTime, Skeleton, TextField, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { TextArea } from '../lib/TextArea.tsx';
import { FISCAL_SETTINGS_KEY } from './queries.ts';

type FiscalFormInput = DefaultValues<z.input<typeof fiscalSettingsSchema>>;

/** A percentage or an amount as typed ("2,5"); empty is none, for the schema to ask for it. */
const typedNumber = (typed: unknown) =>
  typeof typed !== 'string' ? typed : typed.trim() === '' ? null : Number(typed.replace(',', '.'));

/** The settings as the form shows them, the deductions with a decimal comma; before the first save, off and empty. */
function formValuesOf(settings: FiscalSettingsAnswer['settings']): FiscalFormInput {
  if (!settings) return { enabled: false, serviceDescription: '', deductions: '0,00', retainIss: false };
  const { updatedAt: _, ...values } = settings;
  return { ...values, deductions: settings.deductions.replace('.', ',') };
}

function SettingsForm({ answer }: { answer: FiscalSettingsAnswer }) {
  const queryClient = useQueryClient();
  const form = useZodForm(fiscalSettingsSchema, { defaultValues: formValuesOf(answer.settings) });
  const save = useMutation({
    mutationFn: (settings: FiscalSettings) =>
      api<FiscalSettingsAnswer>('/payments/fiscal-settings', { method: 'PUT', body: settings }),
    onSuccess: (saved) => {
      queryClient.setQueryData(FISCAL_SETTINGS_KEY, saved);
      form.reset(formValuesOf(saved.settings));
      toast({ title: fiscalMessages.saved });
    },
    onError: (error) => toastError('Erro ao salvar a configuração fiscal', error),
  });
  const updatedAt = answer.settings?.updatedAt;

  return (
    <form
      className="fiscal-form"
      onSubmit={form.handleSubmit((settings) => save.mutate(settings))}
      noValidate
      aria-label="Configuração fiscal"
    >
      <Checkbox
        role="switch"
        label="Emitir nota fiscal de serviço (NFS-e) para cada pedido pago"
        {...form.field('enabled')}
      />
      <TextArea
        label="Descrição do serviço"
        rows={3}
        maxLength={500}
        hint="O que a nota fiscal diz que foi prestado. De 3 a 500 caracteres."
        {...form.field('serviceDescription')}
      />
      <div className="field-row fiscal-form__pair">
        <TextField
          label="Código do serviço municipal"
          autoComplete="off"
          maxLength={60}
          hint="Informe o código ou o ID do serviço municipal."
          {...form.field('municipalServiceCode')}
        />
        <TextField
          label="ID do serviço municipal"
          autoComplete="off"
          maxLength={60}
          {...form.field('municipalServiceId')}
        />
      </div>
      <TextField
        label="Nome do serviço municipal"
        autoComplete="off"
        maxLength={255}
        {...form.field('municipalServiceName')}
      />
      <div className="field-row fiscal-form__pair">
        <TextField
          label="Alíquota de ISS (%)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Ex.: 2,5"
          hint="De 0 a 5%."
          {...form.field('issRate', { setValueAs: typedNumber })}
        />
        <TextField
          label="Deduções (R$)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Ex.: 0,00"
          hint="Abatidas do valor tributável de cada nota."
          {...form.field('deductions')}
        />
      </div>
      <Checkbox label="Reter ISS" {...form.field('retainIss')} />
      {updatedAt && (
        <p className="fiscal-form__saved">
          Última alteração em <time dateTime={updatedAt}>{formatDateTime(updatedAt)}</time>.
        </p>
      )}
      <Button type="submit" loading={save.isPending}>
        Salvar configuração fiscal
      </Button>
    </form>
  );
}

/** What each paid order's nota fiscal says, and whether one is issued at all. */
export function FiscalSettingsCard() {
  const answer = useQuery<FiscalSettingsAnswer>({ queryKey: FISCAL_SETTINGS_KEY });
  return (
    <section className="card finance-section" aria-labelledby="fiscal-settings-title">
      <h2 id="fiscal-settings-title" className="finance-section__title">
        Nota fiscal de serviço
      </h2>
      {answer.isPending ? (
        <div aria-label="Carregando configuração fiscal">
          <Skeleton />
          <Skeleton />
          <Skeleton />
        </div>
      ) : !answer.data ? (
        <LoadFailure
          message="Não foi possível carregar a configuração fiscal."
          error={answer.error}
          onRetry={() => answer.refetch()}
        />
      ) : (
        <SettingsForm answer={answer.data} />
      )}
    </section>
  );
}
