import { Link } from '@ticketing/shared/router';
import { buttonClass, Page } from '@ticketing/shared';

export function NotFound() {
  return (
    <Page title="Página não encontrada" heading="404 Page Not Found" className="not-found">
      <p>O endereço que você abriu não existe ou mudou de lugar.</p>
      <Link to="/" className={buttonClass('primary')}>
        Voltar para o início
      </Link>
    </Page>
  );
}
