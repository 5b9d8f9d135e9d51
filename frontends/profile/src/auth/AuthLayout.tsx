import type { ReactNode } from 'react';
import { Page } from '@ticketing/shared';
import '../styles/profile.css';

interface AuthLayoutProps {
  title: string;
  lead?: ReactNode;
  /** Wider card for the registration form. */
  wide?: boolean;
  /** Links under the card (e.g. to register or log in). */
  footer?: ReactNode;
  children: ReactNode;
}

/** The frame of the login, registration, verification and password pages: one centred card. */
export function AuthLayout({ title, lead, wide = false, footer, children }: AuthLayoutProps) {
  return (
    <Page title={title} heading={null} className={wide ? 'auth auth--wide' : 'auth'}>
      <div className="auth__card card">
        <h1 className="auth__title">{title}</h1>
        {lead && <p className="auth__lead">{lead}</p>}
        {children}
      </div>
      {footer && <div className="auth__footer">{footer}</div>}
    </Page>
  );
}
