import { takePendingCourtesyCode } from '@ticketing/shared';

/**
 * Where a new session goes: a courtesy link opened while logged out is redeemed first (the saved code is taken
 * out of storage, as the courtesy page itself would), otherwise the home page.
 */
export function destinationAfterLogin(): string {
  const code = takePendingCourtesyCode();
  return code ? `/cortesia?code=${encodeURIComponent(code)}` : '/';
}

/** What the verification page is told when it opens. */
export interface VerifyEmailState {
  /** A code went out just now: resending waits its 30 seconds. */
  codeSent?: boolean;
}

export const verifyEmailPath = (email: string) => `/verify-email?email=${encodeURIComponent(email)}`;
