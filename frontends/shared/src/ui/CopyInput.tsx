import { useId, type ReactNode } from 'react';

interface CopyInputProps {
  /** The class of the block: its row and input take `__row` and `__input`. */
  block: string;
  label: string;
  value: string;
  /** The copy button. */
  children: ReactNode;
}

/** Something to copy (a link, a PIX code): read-only, selected whole on focus, with its copy button beside it. */
export function CopyInput({ block, label, value, children }: CopyInputProps) {
  const inputId = useId();
  return (
    <div className={block}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className={`${block}__row`}>
        <input
          id={inputId}
          className={`field__input ${block}__input`}
          value={value}
          readOnly
          onFocus={(event) => event.target.select()}
        />
        {children}
      </div>
    </div>
  );
}
