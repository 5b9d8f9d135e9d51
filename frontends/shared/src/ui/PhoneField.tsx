import { phoneMask } from '../masks.ts';
import { TextField, type TextFieldProps } from './TextField.tsx';

/** A Brazilian phone number, formatted as it is typed and filled in by the browser from the person's own. */
export function PhoneField({ label = 'Telefone', ...field }: Omit<TextFieldProps, 'label'> & { label?: string }) {
  return <TextField label={label} type="tel" mask={phoneMask} autoComplete="tel-national" {...field} />;
}
