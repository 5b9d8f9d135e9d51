import { cx } from '@ticketing/shared';
import { documentNotice, type Verdict } from '../door/verdict.ts';

/**
 * The verdict over the whole screen, green or red, readable at arm's length, with the ticket's type; a holder let in
 * whose type asks for a document gets 'Conferir documento — <type>' in a band of its own.
 */
export function VerdictOverlay({ verdict }: { verdict: Verdict }) {
  const notice = documentNotice(verdict);
  return (
    <div className={cx('verdict', verdict.admitted ? 'verdict--admitted' : 'verdict--refused')} role="alert">
      {verdict.admitted ? (
        <p className="verdict__headline">
          <span className="verdict__mark">✓</span> {verdict.holder}
        </p>
      ) : (
        <>
          <span className="verdict__mark" aria-hidden="true">
            ✕
          </span>
          <p className="verdict__headline">{verdict.message}</p>
          {verdict.holder && <p className="verdict__detail">{verdict.holder}</p>}
        </>
      )}
      {notice ? (
        <p className="verdict__document">{notice}</p>
      ) : (
        verdict.ticketType && <p className="verdict__detail">{verdict.ticketType.name}</p>
      )}
      {verdict.eventTitle && <p className="verdict__detail">{verdict.eventTitle}</p>}
    </div>
  );
}
