import { useId, type InputHTMLAttributes, type Ref } from 'react';
import type { Mask } from '../masks.ts';
import { cx } from './cx.ts';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** The validation message (react-hook-form's `errors.field?.message`). */
  error?: string;
  hint?: string;
  /** Reformats the value on every keystroke (CPF, phone, birth date). */
  mask?: Mask;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and inline error, wired for screen readers; spread `register('field')` on it. */
export function TextField({ label, error, hint, mask, id, className, onChange, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={cx('field', className)}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="field__input"
        maxLength={mask?.maxLength}
        inputMode={mask ? 'numeric' : undefined}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        onChange={(event) => {
          if (mask) event.target.value = mask.apply(event.target.value);
          onChange?.(event);
        }}
      />
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
