import { useState } from 'react';
import { Link } from '@ticketing/shared/router';
import { buttonClass, Page } from '@ticketing/shared';
import { CreateLinkCard } from '../courtesy-links/CreateLinkCard.tsx';
import { LinkList } from '../courtesy-links/LinkList.tsx';
import '../lib/admin.css';
import '../courtesy-links/courtesy-links.css';

/** /cortesia-admin: create courtesy links and follow how many tickets each one still gives. */
export default function CourtesyAdmin() {
  const [page, setPage] = useState(1);
  return (
    <Page title="Gerenciar Links de Cortesia">
      <p className="admin-lead">
        Crie links gratuitos ou com preço promocional para um evento e acompanhe quantos ingressos ainda restam em cada
        um.
      </p>
      {/* A link styled as a button, as every page's way onward is. */}
      <div className="admin-lead__actions">
        <Link to="/cortesia-envio-em-massa" className={buttonClass('outline', 'sm')}>
          Envio em massa por CSV
        </Link>
      </div>
      <div className="admin-columns courtesy-admin__layout">
        <CreateLinkCard onCreated={() => setPage(1)} />
        <section aria-labelledby="links-title">
          <h2 id="links-title" className="courtesy-admin__list-title">
            Links criados
          </h2>
          <LinkList page={page} onPageChange={setPage} />
        </section>
      </div>
    </Page>
  );
}
