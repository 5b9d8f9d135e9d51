import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cx } from './cx.ts';
import { FieldNotes, noteIds } from './Field.tsx';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, error, id, className, ...input }: CheckboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className={cx('checkbox', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="checkbox__input"
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={noteIds(inputId, { error }).join(' ') || undefined}
      />
      <label className="checkbox__label" htmlFor={inputId}>
        {label}
      </label>
      <FieldNotes controlId={inputId} error={error} />
    </div>
  );
}
