import type { CourtesyRedemptionsView } from '@ticketing/proto';
import { LinkSummary } from '../courtesy-links/LinkSummary.tsx';

/** The link the report is about: its code, event, kind and how many of its tickets were taken. */
export function RedeemedLink({ link }: { link: CourtesyRedemptionsView['link'] }) {
  const kind = link.promotional
    ? { tone: 'accent' as const, label: 'Promocional' }
    : { tone: 'success' as const, label: 'Cortesia (Grátis)' };
  return (
    <section className="card redeemed-link" aria-label="Link de cortesia">
      <LinkSummary link={link} kind={kind} heading="h2">
        <div>
          <dt>{link.promotional ? 'Usos' : 'Resgates'}</dt>
          <dd className="numeric">
            {link.redeemed} de {link.max}
          </dd>
        </div>
      </LinkSummary>
    </section>
  );
}
