import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { doorSearchQuery } from '@ticketing/proto';
import { isApiError, Spinner, TextField, useAuth, useDebounced } from '@ticketing/shared';
import { searchKey, searchTickets } from './search.ts';
import { SearchResult } from './SearchResult.tsx';

/** Waits this long after the last keystroke before searching. */
const TYPING_PAUSE_MS = 300;

/** How the server matches what is typed: part of a CPF or e-mail finds nobody. */
const SEARCH_HINT =
  'Ao menos 3 caracteres: nome (uma ou mais palavras), CPF completo (11 dígitos), e-mail completo ou código do pedido.';

interface LookUpSearchProps {
  eventId: string;
  sessionId: string;
  onAdmit(ticketId: string): void;
}

/** The search box and the guests it finds among the event's tickets, each as they stand in the door's session. */
export function LookUpSearch({ eventId, sessionId, onAdmit }: LookUpSearchProps) {
  const [text, setText] = useState('');
  const typed = useDebounced(text, TYPING_PAUSE_MS);
  const query = doorSearchQuery.safeParse({ q: typed });
  const q = query.success ? query.data.q : null;
  const auth = useAuth();
  const search = useQuery({
    queryKey: [...searchKey(eventId), sessionId, q],
    queryFn: ({ signal }) => searchTickets(eventId, sessionId, q!, signal),
    enabled: q !== null,
    // Who came in changes by the second: every search asks again, and the list shown stays until the answer.
    staleTime: 0,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });

  // The shared text field, set up as a search at the door; other forms set it up alike for their own input.
  return (
    <div className="lookup">
      <TextField
        label="Nome, CPF, e-mail ou código do pedido"
        hint={SEARCH_HINT}
        type="search"
        enterKeyHint="search"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {q !== null && (
        <div className="lookup__results" aria-live="polite" aria-busy={search.isFetching}>
          {search.isPending && <Spinner label="Buscando..." />}
          {search.isError && (
            <p className="lookup__message" role="alert">
              {isApiError(search.error)
                ? search.error.message
                : 'Sem conexão com o servidor: a busca precisa de internet. Tente novamente.'}
            </p>
          )}
          {search.data?.tickets.length === 0 && (
            <p className="lookup__message">Nenhum participante encontrado. CPF e e-mail precisam estar completos.</p>
          )}
          {search.data && search.data.tickets.length > 0 && (
            <ul className="lookup__list" aria-label="Participantes encontrados">
              {search.data.tickets.map((hit) => (
                <SearchResult
                  key={hit.ticketId}
                  eventId={eventId}
                  sessionId={sessionId}
                  hit={hit}
                  mayReset={auth.user?.isAdmin ?? false}
                  onAdmit={onAdmit}
                />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
