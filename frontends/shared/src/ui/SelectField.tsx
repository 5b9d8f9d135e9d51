import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { Field } from './Field.tsx';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  /** The validation message (react-hook-form's `errors.field?.message`). */
  error?: string;
  hint?: string;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native select with its hint and inline error, like `TextField`. */
export function SelectField({ label, error, hint, id, className, children, ...select }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => (
        <select className="field__input field__select" {...select} {...control}>
          {children}
        </select>
      )}
    </Field>
  );
}
