import { TextField, type TextFieldProps } from '@ticketing/shared';

/** The password the person has now, filled in by the browser's password manager. */
export function CurrentPasswordField({
  label = 'Senha atual',
  ...field
}: Omit<TextFieldProps, 'label'> & { label?: string }) {
  return <TextField label={label} type="password" autoComplete="current-password" {...field} />;
}
