import { MAX_INSTALLMENTS } from '@ticketing/proto';
import { TextField } from '@ticketing/shared';
import type { EventForm } from './event-form.ts';

/** How the event sells by card in installments: at most so many, none smaller than the minimum (R$ 5,00 at least). */
export function InstallmentsField({ form }: { form: EventForm }) {
  return (
    <fieldset className="event-form__installments">
      <legend className="field__label">Parcelamento no cartão</legend>
      <div className="field-row event-form__pair">
        <TextField
          label="Parcelas no cartão (máximo)"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_INSTALLMENTS}
          step={1}
          hint={`De 1 (somente à vista) a ${MAX_INSTALLMENTS}.`}
          {...form.field('maxInstallments', { valueAsNumber: true })}
        />
        <TextField
          label="Valor mínimo da parcela (R$)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Ex.: 50,00"
          hint="Pelo menos R$ 5,00. Pedidos menores oferecem menos parcelas."
          {...form.field('minInstallmentValue')}
        />
      </div>
    </fieldset>
  );
}
