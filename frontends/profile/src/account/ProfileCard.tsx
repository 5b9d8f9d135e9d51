import { Link } from '@ticketing/shared/router';
import type { UserView } from '@ticketing/proto';
import { api, Badge, errorTitles, initials } from '@ticketing/shared';
import { verifyEmailPath } from '../auth/after-login.ts';
import { ResendButton } from '../auth/ResendButton.tsx';

const resendVerification = async () =>
  (await api<{ message: string }>('/auth/resend-verification', { method: 'POST' })).message;

/** Who is logged in; an address not yet verified can get a new code from here. */
export function ProfileCard({ user }: { user: UserView }) {
  return (
    <aside className="profile-card card" aria-label="Sua conta">
      <span className="profile-card__avatar" aria-hidden="true">
        {initials(user.name)}
      </span>
      <p className="profile-card__name">{user.name}</p>
      <p className="profile-card__email">{user.email}</p>
      {user.isAdmin && <Badge tone="accent">ADMIN</Badge>}
      {!user.emailVerified && (
        <div className="profile-card__verify">
          <Badge tone="warning">Email não verificado</Badge>
          <ResendButton send={resendVerification} errorTitle={errorTitles.sendEmail} size="sm" block />
          <Link to={verifyEmailPath(user.email)} className="profile-card__link">
            Já tenho o código
          </Link>
        </div>
      )}
    </aside>
  );
}
