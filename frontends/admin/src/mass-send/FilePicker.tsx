import { useEffect, useId, useRef } from 'react';
import { Button, buttonClass, cx, FieldNotes, noteIds } from '@ticketing/shared';
import { FileIcon } from '../lib/icons.tsx';

interface FilePickerProps {
  label: string;
  /** What the file dialog offers (`.csv,text/csv`); the page still checks what was picked. */
  accept: string;
  file: File | null;
  onPick(file: File | null): void;
  hint?: string;
  error?: string;
  required?: boolean;
}

/** A file input shown as a button and the chosen file's name, with a way to take the file out again. */
export function FilePicker({ label, accept, file, onPick, hint, error, required }: FilePickerProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  // The browser keeps the picked file in the input: emptied with the page's state so the same file can be picked again.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);

  return (
    <div className="field file-picker">
      <span className="field__label" id={`${inputId}-label`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </span>
      <div className="file-picker__row">
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={accept}
          className="visually-hidden file-picker__input"
          required={required}
          aria-labelledby={`${inputId}-label`}
          aria-describedby={[`${inputId}-name`, ...noteIds(inputId, { hint, error })].join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onPick(event.target.files?.[0] ?? null)}
        />
        <label htmlFor={inputId} className={cx(buttonClass('outline'), 'file-picker__button')}>
          <FileIcon />
          Escolher arquivo
        </label>
        <span id={`${inputId}-name`} className={cx('file-picker__name', !file && 'file-picker__name--empty')}>
          {file ? file.name : 'Nenhum arquivo selecionado'}
        </span>
        {file && (
          <Button variant="ghost" size="sm" onClick={() => onPick(null)} aria-label={`Remover ${file.name}`}>
            Remover
          </Button>
        )}
      </div>
      <FieldNotes controlId={inputId} hint={hint} error={error} />
    </div>
  );
}
