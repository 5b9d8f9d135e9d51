import { useCallback } from 'react';
import { useSearchParams } from '@ticketing/shared/router';

/**
 * A list's search kept in the address, so going back to the list finds it as it was: `params` (the page included)
 * and `go`, which writes a new search, leaving out empty filters and the first page.
 */
export function useUrlSearch() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.trunc(Number(params.get('page'))) || 1);
  const go = useCallback(
    <Search extends { page: number }>(next: Search) => {
      const entries = Object.entries(next).filter(([name, value]) => value && !(name === 'page' && value === 1));
      setParams(new URLSearchParams(entries.map(([name, value]) => [name, String(value)])), { replace: true });
    },
    [setParams],
  );
  return { params, page, go };
}
