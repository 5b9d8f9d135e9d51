import { cx } from '@ticketing/shared';
import type { Verdict } from '../door/verdict.ts';

/** The verdict over the whole screen, green or red, readable at arm's length. */
export function VerdictOverlay({ verdict }: { verdict: Verdict }) {
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
      {verdict.eventTitle && <p className="verdict__detail">{verdict.eventTitle}</p>}
    </div>
  );
}
