import { ApiError } from './client.ts';
import { bearer, expireSession, getToken } from '../session.ts';

const REVOKE_AFTER_MS = 60_000;

/** The name the server gives the file: the UTF-8 spelling (`filename*`) when there is one, else the ASCII one. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]!.trim());
    } catch {
      // badly encoded: the ASCII name below will do
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/** The server's `{ message }`, or the status when it sent none. */
async function failureOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { message?: unknown };
  const message = typeof body.message === 'string' ? body.message : `Erro ${response.status}`;
  return new ApiError(response.status, message);
}

/**
 * Downloads `/api<path>` as a file. A plain link would go without the session (the token lives in the page, not in
 * a cookie), so the file is fetched with it and handed to the browser as a Blob, named as the server says.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  const token = getToken();
  const response = await fetch(`/api${path}`, {
    headers: bearer(token),
    credentials: 'include',
  });
  if (!response.ok) {
    if (response.status === 401 && token) expireSession();
    throw await failureOf(response);
  }
  const fileName = fileNameOf(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: a browser may still be reading the Blob for the download the click started.
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  return fileName;
}
