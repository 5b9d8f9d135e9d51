import { forgetDeviceData } from './device-data.ts';
import { clearToken, getToken, setToken } from './token.ts';

export { clearToken, getToken, hasSession, setToken } from './token.ts';

/** A courtesy code opened while logged out, redeemed after login. */
const PENDING_COURTESY_KEY = 'pendingCourtesyCode';

/** The session (`sid`) and generation (`gen`) a token names: read, not verified, only to order tokens of one session. */
function placeInSession(token: string): { sid?: unknown; gen?: unknown } {
  try {
    return JSON.parse(atob(token.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/')));
  } catch {
    return {};
  }
}

/**
 * Keeps a renewal's token if it is the newest of the stored session. Tabs share the stored token, so when two renew
 * at once the answer that arrives last may be the older one; and a tab signed out, or into another account, is not
 * brought back by a renewal that was still on its way.
 */
export function storeRenewedToken(token: string) {
  const stored = getToken();
  if (!stored) return;
  const [current, renewed] = [placeInSession(stored), placeInSession(token)];
  if (current.sid === renewed.sid && Number(renewed.gen) > Number(current.gen)) setToken(token);
}

/** The header that presents `token` to the API; none without a token. */
export const bearer = (token: string | null): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

export const savePendingCourtesyCode = (code: string) => localStorage.setItem(PENDING_COURTESY_KEY, code);

/** The saved code, left in place (safe to call while rendering). */
export const pendingCourtesyCode = () => localStorage.getItem(PENDING_COURTESY_KEY);

/** The saved code, removed as it is read: it is redeemed once. */
export function takePendingCourtesyCode(): string | null {
  const code = pendingCourtesyCode();
  localStorage.removeItem(PENDING_COURTESY_KEY);
  return code;
}

/**
 * Sair: ends the session on the server, forgets the token and what the device kept for the person (the door's
 * offline data), and starts over from the home page with nothing cached. The server call is not waited for:
 * `keepalive` lets it finish while the page reloads, and a failure (offline, a service down) must not keep anyone
 * logged in on this device.
 */
export async function signOut() {
  const token = getToken();
  if (token) {
    fetch('/api/auth/logout', {
      method: 'POST',
      headers: bearer(token),
      credentials: 'include',
      keepalive: true,
    }).catch(() => {});
  }
  clearToken();
  await forgetDeviceData().catch(() => {});
  window.location.assign('/');
}

/** The server no longer accepts the token: forget it and ask for a new login. */
export function expireSession() {
  clearToken();
  if (window.location.pathname !== '/login') window.location.assign('/login');
}
