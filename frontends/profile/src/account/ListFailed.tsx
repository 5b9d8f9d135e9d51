import { Button } from '@ticketing/shared';

/** A list of the profile that could not be read ('Não foi possível carregar seus pedidos.'), why, and a retry. */
export function ListFailed({ title, error, retry }: { title: string; error: Error; retry: () => void }) {
  return (
    <div className="profile-empty" role="alert">
      <p className="profile-empty__title">{title}</p>
      <p>{error.message}</p>
      <Button variant="outline" onClick={retry}>
        Tentar novamente
      </Button>
    </div>
  );
}
