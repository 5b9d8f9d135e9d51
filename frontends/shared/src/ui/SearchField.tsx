import { useEffect, useState } from 'react';
import { useDebounced } from '../useDebounced.ts';
import { TextField, type TextFieldProps } from './TextField.tsx';

/** What every search box of the site is: a search input of at most 100 characters the browser does not fill in. */
export const searchInput = { type: 'search', maxLength: 100, autoComplete: 'off' } as const;

/** The search waits for the typing to pause before asking the server. */
const TYPING_PAUSE_MS = 300;

interface SearchFieldProps extends Omit<TextFieldProps, 'value' | 'onChange'> {
  /** The words searched for now. */
  value: string;
  /** The new words (trimmed), once the typing pauses. */
  onSearch(value: string): void;
}

/** A labelled search box that asks for a new search once per pause in the typing, not on every keystroke. */
export function SearchField({ value, onSearch, ...field }: SearchFieldProps) {
  const [typed, setTyped] = useState(value);
  const settled = useDebounced(typed.trim(), TYPING_PAUSE_MS);
  useEffect(() => {
    if (settled !== value) onSearch(settled);
  }, [settled, value, onSearch]);
  return <TextField {...searchInput} {...field} value={typed} onChange={(event) => setTyped(event.target.value)} />;
}
