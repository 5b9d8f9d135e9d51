import { TextField, type TextFieldProps } from '@ticketing/shared';

type BoundField = Omit<TextFieldProps, 'label'>;

interface NewPasswordFieldsProps {
  /** `form.field(...)` of the new password and of its confirmation. */
  password: BoundField;
  confirmation: BoundField;
  labels?: [password: string, confirmation: string];
}

/** A new password and its confirmation, as registering, resetting and changing the password ask for them. */
export function NewPasswordFields({
  password,
  confirmation,
  labels = ['Nova senha', 'Confirme a nova senha'],
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={labels[0]}
        type="password"
        autoComplete="new-password"
        hint="Pelo menos 8 caracteres; evite senhas comuns, como senha123"
        {...password}
      />
      <TextField label={labels[1]} type="password" autoComplete="new-password" {...confirmation} />
    </>
  );
}
