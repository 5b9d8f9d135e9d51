import type { Ref, TextareaHTMLAttributes } from 'react';
import { Field } from '@ticketing/shared';
import './admin.css';

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A labelled multi-line field with its hint and inline error, in the frame of the shared `TextField`. */
export function TextArea({ label, error, hint, id, ...textarea }: TextAreaProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id}>
      {(control) => <textarea className="field__input text-area" {...textarea} {...control} />}
    </Field>
  );
}
