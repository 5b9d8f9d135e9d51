import nodemailer from 'nodemailer';
import type { EmailAttachment } from '../domain/attachments.ts';

export interface OutgoingEmail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
}

export interface Sender {
  /** Resolves once the SMTP server accepted the message; rejects with nodemailer's error otherwise. */
  send(email: OutgoingEmail): Promise<{ messageId: string; response: string }>;
  close(): void;
}

export interface SmtpSettings {
  url: string;
  from: string;
  connections: number;
  timeoutMs: number;
  /**
   * Headers for fetching an attachment by its link (courtesy's and certificates' internal routes want a fresh service
   * token addressed to them).
   */
  linkHeaders(href: string): Promise<Record<string, string>>;
}

const domainOf = (from: string) => /@([^\s@>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

/** Nodemailer's pooled SMTP transport, with timeouts short enough for a worker and stable Message-IDs. */
export function createSmtpSender({ url, from, connections, timeoutMs, linkHeaders }: SmtpSettings): Sender {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: connections,
    connectionTimeout: Math.min(timeoutMs, 10_000),
    greetingTimeout: Math.min(timeoutMs, 10_000),
    socketTimeout: timeoutMs,
  });
  const domain = domainOf(from);
  return {
    async send(email) {
      const attachments = await Promise.all(
        email.attachments.map(async (attachment) => ({
          filename: attachment.filename,
          contentType: attachment.contentType,
          ...(attachment.cid ? { cid: attachment.cid } : {}),
          ...('content' in attachment
            ? { content: Buffer.from(attachment.content, 'base64') }
            : { href: attachment.href, httpHeaders: await linkHeaders(attachment.href) }),
        })),
      );
      const info = await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        // The same Message-ID on every attempt: if a message is ever delivered twice, clients can tell.
        messageId: `<${email.id}@${domain}>`,
        headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
        attachments,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { messageId: info.messageId, response: info.response };
    },
    close: () => transport.close(),
  };
}
