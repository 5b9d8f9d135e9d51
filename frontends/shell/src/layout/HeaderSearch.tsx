import type { FormEvent } from 'react';
import { searchInput } from '@ticketing/shared';
import { useNavigate } from '@ticketing/shared/router';
import { SearchIcon } from './icons.tsx';

const SEARCH_ID = 'busca-rapida';

/**
 * The header's search: the icon opens a search field that goes to the events list with the words typed. The browser
 * itself opens it (a popover) and sends it (a plain form), so it answers before the page's code has arrived.
 */
export function HeaderSearch() {
  const navigate = useNavigate();

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const words = String(new FormData(form).get('q') ?? '').trim();
    form.hidePopover();
    navigate(words ? `/eventos?q=${encodeURIComponent(words)}` : '/eventos');
  }

  return (
    <>
      <button
        type="button"
        className="header__icon"
        aria-label="Buscar eventos"
        title="Buscar eventos"
        popoverTarget={SEARCH_ID}
      >
        <SearchIcon />
      </button>
      <form id={SEARCH_ID} popover="auto" role="search" action="/eventos" className="header-search" onSubmit={search}>
        <input
          name="q"
          {...searchInput}
          autoFocus
          aria-label="Buscar eventos"
          placeholder="Buscar por nome, local ou assunto"
          className="header-search__input"
        />
        <button type="submit" className="btn btn--primary btn--md">
          Buscar
        </button>
      </form>
    </>
  );
}
