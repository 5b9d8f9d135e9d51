import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cx } from './cx.ts';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, error, id, className, ...input }: CheckboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={cx('checkbox', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="checkbox__input"
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
      />
      <label className="checkbox__label" htmlFor={inputId}>
        {label}
      </label>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
