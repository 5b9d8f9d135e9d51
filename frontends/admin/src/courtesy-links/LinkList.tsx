import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CourtesyLinkView } from '@ticketing/proto';
import { Pager, Skeleton, useFailureToast } from '@ticketing/shared';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { LinkCard } from './LinkCard.tsx';

interface LinkPage {
  links: CourtesyLinkView[];
  totalPages: number;
}

/** The links, newest first, a page at a time. */
export function LinkList({ page, onPageChange }: { page: number; onPageChange(page: number): void }) {
  const links = useQuery<LinkPage>({ queryKey: ['courtesy-links', { page }], placeholderData: keepPreviousData });
  useFailureToast(links.error, 'Erro');

  if (links.isPending) {
    return (
      <ul className="bare-list link-list" aria-label="Carregando links">
        {[0, 1, 2].map((i) => (
          <li key={i} className="card link-card">
            <Skeleton style={{ width: '60%', height: '1.25rem' }} />
            <Skeleton style={{ width: '40%' }} />
            <Skeleton style={{ height: '2.75rem' }} />
          </li>
        ))}
      </ul>
    );
  }
  if (!links.data) {
    return <LoadFailure message="Não foi possível carregar os links de cortesia." onRetry={() => links.refetch()} />;
  }
  if (links.data.links.length === 0) {
    return <p className="list-message">Nenhum link de cortesia criado ainda</p>;
  }
  return (
    <>
      <ul className="bare-list link-list" aria-busy={links.isPlaceholderData}>
        {links.data.links.map((link) => (
          <LinkCard key={link.id} link={link} />
        ))}
      </ul>
      <Pager page={page} totalPages={links.data.totalPages} onPageChange={onPageChange} />
    </>
  );
}
