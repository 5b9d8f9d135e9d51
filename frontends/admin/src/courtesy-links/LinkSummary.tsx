import type { ReactNode } from 'react';
import { Badge } from '@ticketing/shared';

interface LinkSummaryProps {
  link: { code: string; isActive: boolean; event: { title: string }; ticketType?: { name: string } | null };
  /** The kind's badge: free, or promotional. */
  kind: { tone: 'success' | 'accent'; label: string };
  /** The page's own heading level: a card in the list, or the subject of the report. */
  heading: 'h2' | 'h3';
  /** The facts after the code. */
  children: ReactNode;
}

/** A courtesy link at a glance, in the list and atop its redemptions: event, kind and type, state, code. */
export function LinkSummary({ link, kind, heading: Heading, children }: LinkSummaryProps) {
  return (
    <>
      <div className="wrap-row link-card__top">
        <Heading className="link-card__event">{link.event.title}</Heading>
        <div className="link-card__badges">
          <Badge tone={kind.tone}>{kind.label}</Badge>
          {link.ticketType && <Badge tone="neutral">{link.ticketType.name}</Badge>}
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
        {children}
      </dl>
    </>
  );
}
