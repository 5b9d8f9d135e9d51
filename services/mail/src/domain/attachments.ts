import { z } from 'zod';

const common = {
  filename: z.string().min(1).max(255),
  /** Parameters may follow the type, as a calendar file's `text/calendar; charset=utf-8; method=PUBLISH`. */
  contentType: z.string().regex(/^[\w.+-]+\/[\w.+-]+(; ?[\w.+-]+=[\w.+-]+)*$/, 'must be a MIME type such as image/png'),
  /** Content-ID for an inline image: the HTML shows it with <img src="cid:…">. */
  cid: z.string().min(1).max(255).optional(),
};

/**
 * An attachment as the queue stores it: the bytes themselves in base64 (small files made per e-mail, like a
 * ticket's QR code) or a reference to fetch at send time (one large file shared by many e-mails).
 */
export const emailAttachment = z.union([
  z.object({ ...common, content: z.base64() }).strict(),
  z.object({ ...common, href: z.url({ protocol: /^https?$/ }) }).strict(),
]);

export type EmailAttachment = z.infer<typeof emailAttachment>;
