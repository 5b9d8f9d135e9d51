import { Link } from '@ticketing/shared/router';
import type { CourtesyLinkView } from '@ticketing/proto';
import { buttonClass, cx, formatShortDate } from '@ticketing/shared';
import { CopyField } from './CopyField.tsx';
import { DeactivateLink } from './DeactivateLink.tsx';
import { LinkSummary } from './LinkSummary.tsx';

/** The badge of spec §2: the promotional price as the API sends it ('Promocional: R$ 49.90'), or free. */
const kindOf = (link: CourtesyLinkView) =>
  link.overridePrice === null
    ? { tone: 'success' as const, label: 'Cortesia (Grátis)' }
    : { tone: 'accent' as const, label: `Promocional: R$ ${Number(link.overridePrice).toFixed(2)}` };

export function LinkCard({ link }: { link: CourtesyLinkView }) {
  const kind = kindOf(link);
  return (
    <li className="card link-card">
      <LinkSummary link={link} kind={kind} heading="h3">
        <div>
          <dt>Ingressos</dt>
          <dd className={cx('numeric', link.remainingTickets === 0 && 'link-card__remaining--none')}>
            {link.remainingTickets} de {link.ticketCount} disponíveis
          </dd>
        </div>
        <div>
          <dt>Criado em</dt>
          <dd className="numeric">{formatShortDate(link.createdAt)}</dd>
        </div>
      </LinkSummary>
      <div className="link-card__bottom">
        <CopyField label="Link de resgate" value={link.redeemUrl} />
        <Link to={`/cortesia-admin/${link.id}/resgates`} className={buttonClass('outline')}>
          Ver resgates
        </Link>
        {link.isActive && <DeactivateLink link={link} />}
      </div>
    </li>
  );
}
