import { searchInput } from '@ticketing/shared';
import { SearchIcon } from '../ui/icons.tsx';
import './search.css';

interface SearchBoxProps {
  value: string;
  onChange(value: string): void;
}

/** The events search: it searches as the visitor types; Enter only keeps the page where it is. */
export function SearchBox({ value, onChange }: SearchBoxProps) {
  return (
    <form role="search" className="search-box" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor="busca-eventos" className="visually-hidden">
        Buscar eventos
      </label>
      <SearchIcon />
      <input
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
