import type { ReactNode } from 'react';
import { Page } from '@ticketing/shared';
import { Waiting } from '../ui/StatusMessage.tsx';
import './courtesy.css';

/** Every step of /cortesia is one centred card with its own heading. */
export function CourtesyFrame({ children }: { children: ReactNode }) {
  return (
    <Page title="Resgate de cortesia" heading={null} className="courtesy">
      <div className="courtesy__card card">{children}</div>
    </Page>
  );
}

/** A step the visitor only waits through (the session, the code, a redirect). */
export function CourtesyWaiting({ label }: { label: string }) {
  return (
    <CourtesyFrame>
      <h1 className="courtesy__title">Resgate de Cortesia</h1>
      <Waiting label={label} />
    </CourtesyFrame>
  );
}
