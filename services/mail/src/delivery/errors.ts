interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
  message?: unknown;
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

/** One line for `last_error`: the error code, the SMTP reply code and the message. */
export function describeError(error: unknown): string {
  const { code, responseCode, message } = (error ?? {}) as SmtpError;
  const parts = [
    typeof code === 'string' ? code : undefined,
    typeof responseCode === 'number' ? String(responseCode) : undefined,
    typeof message === 'string' ? message : String(error),
  ].filter(Boolean);
  return parts.join(' ').replace(/\s+/g, ' ').slice(0, 1000);
}
