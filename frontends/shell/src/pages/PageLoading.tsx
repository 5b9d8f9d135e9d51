import { Spinner } from '@ticketing/shared';

export function PageLoading() {
  return (
    <div className="page page-loading">
      <Spinner size="lg" label="Carregando..." />
    </div>
  );
}
