import { useId, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { cx } from './cx.ts';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  /** The validation message (react-hook-form's `errors.field?.message`). */
  error?: string;
  hint?: string;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native select with its hint and inline error, like `TextField`; spread `register('field')` on it. */
export function SelectField({ label, error, hint, id, className, children, ...select }: SelectFieldProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  const hintId = hint ? `${selectId}-hint` : undefined;
  const errorId = error ? `${selectId}-error` : undefined;
  return (
    <div className={cx('field', className)}>
      <label className="field__label" htmlFor={selectId}>
        {label}
      </label>
      <select
        id={selectId}
        className="field__input field__select"
        {...select}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      >
        {children}
      </select>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
