import { useQuery } from '@tanstack/react-query';
import type { PublicCourtesyLinkView } from '@ticketing/proto';
import { api } from '@ticketing/shared';

export const courtesyLinkQueryKey = (code: string) => ['courtesy-links', code];

/** A courtesy or promotional code, looked up without the session: anyone holding the code may see what it gives. */
export const useCourtesyLink = (code: string | null) =>
  useQuery({
    queryKey: courtesyLinkQueryKey(code ?? ''),
    queryFn: ({ signal }) =>
      api<PublicCourtesyLinkView>(`/courtesy-links/${encodeURIComponent(code!)}`, { anonymous: true, signal }),
    enabled: Boolean(code),
  });
