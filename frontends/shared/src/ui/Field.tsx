import { useId, type ReactNode } from 'react';
import { cx } from './cx.ts';

/** What a field's control carries to be tied to its label, hint and message. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface NotesProps {
  /** The validation message (react-hook-form's `errors.field?.message`). */
  error?: string;
  hint?: string;
}

interface FieldProps extends NotesProps {
  label: string;
  id?: string;
  className?: string;
  children(control: ControlProps): ReactNode;
}

/** The ids of the notes `FieldNotes` shows under the control `controlId`, for its `aria-describedby`. */
export const noteIds = (controlId: string, { hint, error }: NotesProps): string[] => [
  ...(hint ? [`${controlId}-hint`] : []),
  ...(error ? [`${controlId}-error`] : []),
];

/** A field's hint and inline error, under its control. */
export function FieldNotes({ controlId, hint, error }: NotesProps & { controlId: string }) {
  return (
    <>
      {hint && (
        <p id={`${controlId}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${controlId}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The frame of every form field: its label, the control, a hint and the inline error, wired for screen readers. */
export function Field({ label, error, hint, id, className, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  return (
    <div className={cx('field', className)}>
      <label className="field__label" htmlFor={controlId}>
        {label}
      </label>
      {children({
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': noteIds(controlId, { hint, error }).join(' ') || undefined,
      })}
      <FieldNotes controlId={controlId} hint={hint} error={error} />
    </div>
  );
}
