import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { FieldNotes, noteIds } from '@ticketing/shared';
import './admin.css';

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A labelled multi-line field with its hint and inline error, wired by ids as the shared `TextField` and `Checkbox` are. */
export function TextArea({ label, error, hint, id, ...textarea }: TextAreaProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  return (
    <div className="field">
      <label className="field__label" htmlFor={controlId}>
        {label}
      </label>
      <textarea
        className="field__input text-area"
        {...textarea}
        id={controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={noteIds(controlId, { hint, error }).join(' ') || undefined}
      />
      <FieldNotes controlId={controlId} hint={hint} error={error} />
    </div>
  );
}
