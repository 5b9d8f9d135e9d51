import type { CourtesyRedemptionsView } from '@ticketing/proto';
import { Badge } from '@ticketing/shared';

/** The link the report is about: its code, event, kind and how many of its tickets were taken. */
export function RedeemedLink({ link }: { link: CourtesyRedemptionsView['link'] }) {
  return (
    <section className="card redeemed-link" aria-label="Link de cortesia">
      <div className="link-card__top">
        <h2 className="link-card__event">{link.event.title}</h2>
        <div className="link-card__badges">
          {link.promotional ? (
            <Badge tone="accent">Promocional</Badge>
          ) : (
            <Badge tone="success">Cortesia (Grátis)</Badge>
          )}
          {!link.isActive && <Badge tone="neutral">Desativado</Badge>}
        </div>
      </div>
      <dl className="facts link-card__facts">
        <div>
          <dt>Código</dt>
          <dd>
            <code className="link-card__code">{link.code}</code>
          </dd>
        </div>
        <div>
          <dt>{link.promotional ? 'Usos' : 'Resgates'}</dt>
          <dd className="numeric">
            {link.redeemed} de {link.max}
          </dd>
        </div>
      </dl>
    </section>
  );
}
