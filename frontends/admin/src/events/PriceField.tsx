import { TextField, type TextFieldProps } from '@ticketing/shared';

/** A price as the admin types it, with a decimal comma ("150,00"); spread `form.field(…)` on it. */
export function PriceField(props: Omit<TextFieldProps, 'label'>) {
  return <TextField label="Preço (R$)" inputMode="decimal" autoComplete="off" placeholder="Ex.: 150,00" {...props} />;
}
