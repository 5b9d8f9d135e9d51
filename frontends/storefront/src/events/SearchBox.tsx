import { useEffect, useEffectEvent, useRef } from 'react';
import { searchInput } from '@ticketing/shared';
import { SearchIcon } from '../ui/icons.tsx';
import './search.css';

interface SearchBoxProps {
  value: string;
  onChange(value: string): void;
}

/** The events search: it searches as the visitor types; Enter only keeps the page where it is. */
export function SearchBox({ value, onChange }: SearchBoxProps) {
  const field = useRef<HTMLInputElement>(null);
  // Words typed before the page's code ran are in the field but were not searched: they are, once it runs.
  const searchTypedBefore = useEffectEvent(() => {
    const typed = field.current?.value ?? value;
    if (typed !== value) onChange(typed);
  });
  useEffect(() => searchTypedBefore(), []);
  return (
    <form role="search" className="search-box" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor="busca-eventos" className="visually-hidden">
        Buscar eventos
      </label>
      <SearchIcon />
      <input
        ref={field}
        id="busca-eventos"
        name="q"
        {...searchInput}
        className="search-box__input"
        placeholder="Buscar por nome, local ou assunto"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </form>
  );
}
