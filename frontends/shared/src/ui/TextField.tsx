import type { InputHTMLAttributes, Ref } from 'react';
import type { Mask } from '../masks.ts';
import { Field } from './Field.tsx';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The validation message (react-hook-form's `errors.field?.message`). */
  error?: string;
  hint?: string;
  /** Reformats the value on every keystroke (CPF, CNPJ, phone, birth date). */
  mask?: Mask;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and inline error; spread `form.field('name')` on it. */
export function TextField({ label, error, hint, mask, id, className, onChange, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => (
        <input
          className="field__input"
          maxLength={mask?.maxLength}
          inputMode={mask ? (mask.inputMode ?? 'numeric') : undefined}
          {...input}
          {...control}
          onChange={(event) => {
            if (mask) event.target.value = mask.apply(event.target.value);
            onChange?.(event);
          }}
        />
      )}
    </Field>
  );
}
