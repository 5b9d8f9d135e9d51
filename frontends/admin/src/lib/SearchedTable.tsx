import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Pager } from '@ticketing/shared';
import { CardTable, CardTableSkeleton } from './CardTable.tsx';
import { LoadFailure } from './LoadFailure.tsx';

/** A page of a searched list, as the API answers it; `page` where the server says which it answered. */
interface ResultPage {
  total: number;
  totalPages: number;
  page?: number;
}

/** A searched list: its columns, what it lists (masculine nouns: 'evento', 'eventos') and a row per item, keyed. */
export interface SearchedList<Answer extends ResultPage> {
  columns: readonly string[];
  words: { one: string; many: string; /** When nothing was ever made. */ none: string };
  rows(answer: Answer): ReactNode[];
}

interface SearchedTableProps<Answer extends ResultPage> {
  list: SearchedList<Answer>;
  query: UseQueryResult<Answer>;
  filtered: boolean;
  /** The search in the address and how to change it: the pager goes to another page of it. */
  search: { page: number };
  go(search: { page: number }): void;
}

/** A searched list's results: a skeleton, then the count, the table (cards on a phone) and its pager. */
export function SearchedTable<Answer extends ResultPage>({
  list,
  query,
  filtered,
  search,
  go,
}: SearchedTableProps<Answer>) {
  const { columns, words } = list;
  const caption = words.many[0].toUpperCase() + words.many.slice(1);
  if (query.isPending) return <CardTableSkeleton columns={columns} label={`Carregando ${words.many}`} />;
  if (!query.data)
    return <LoadFailure message={`Não foi possível carregar os ${words.many}.`} onRetry={() => query.refetch()} />;
  const answer = query.data;
  const rows = list.rows(answer);
  if (rows.length === 0) {
    return <p className="list-message">{filtered ? `Nenhum ${words.one} encontrado para esta busca.` : words.none}</p>;
  }
  return (
    <>
      <p className="list-count" aria-live="polite">
        {answer.total === 1 ? `1 ${words.one}` : `${answer.total} ${words.many}`}
      </p>
      <CardTable columns={columns} caption={caption} busy={query.isPlaceholderData}>
        {rows}
      </CardTable>
      <Pager
        page={answer.page ?? search.page}
        totalPages={answer.totalPages}
        onPageChange={(page) => go({ ...search, page })}
      />
    </>
  );
}
