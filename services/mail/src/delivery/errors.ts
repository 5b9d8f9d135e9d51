interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
  message?: unknown;
  /** Set by nodemailer when an attachment given by URL could not be fetched. */
  sourceUrl?: unknown;
}

/**
 * A refusal that will not change by retrying: the server answered 5xx to the recipient or the message
 * (unknown mailbox, refused content), or there is no valid recipient at all. Connection, timeout, 4xx and
 * authentication failures are worth retrying (an outage, a full mailbox, a credential being fixed).
 */
export function isPermanent(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  if (code !== 'EENVELOPE' && code !== 'EMESSAGE') return false;
  return typeof responseCode !== 'number' || (responseCode >= 500 && responseCode < 600);
}

/** An address without its query or credentials (a redirect may lead to a signed URL). */
function withoutSecrets(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * One line for `last_error`: the error code, the SMTP reply code and the message, and the file's address when an
 * attachment could not be fetched.
 */
export function describeError(error: unknown): string {
  const { code, responseCode, message, sourceUrl } = (error ?? {}) as SmtpError;
  const parts = [
    typeof code === 'string' ? code : undefined,
    typeof responseCode === 'number' ? String(responseCode) : undefined,
    typeof message === 'string' ? message : String(error),
    typeof sourceUrl === 'string' ? `(attachment ${withoutSecrets(sourceUrl)})` : undefined,
  ].filter(Boolean);
  return parts.join(' ').replace(/\s+/g, ' ').slice(0, 1000);
}
