import { Button } from './Button.tsx';

interface PagerProps {
  /** Pages start at 1. */
  page: number;
  totalPages: number;
  onPageChange(page: number): void;
}

/** Anterior / Próxima, shown only when there is more than one page. */
export function Pager({ page, totalPages, onPageChange }: PagerProps) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label="Paginação">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Anterior
      </Button>
      <span className="pager__status numeric">
        Página {page} de {totalPages}
      </span>
      <Button variant="outline" size="sm" disabled={page >= totalPages} onClick={() => onPageChange(page + 1)}>
        Próxima
      </Button>
    </nav>
  );
}
