import type { ReactNode } from 'react';
import { Spinner } from '@ticketing/shared';
import './status.css';

/** A step the page waits on (auth, a code check): a spinner and what is happening, announced politely. */
export function Waiting({ label }: { label: string }) {
  return (
    <div className="status-message">
      <Spinner size="lg" label={label} />
    </div>
  );
}

/** An empty list or a dead end: the spec's sentence, and what the visitor can do next. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="status-message status-message--empty">
      <p className="status-message__text">{children}</p>
      {action}
    </div>
  );
}
