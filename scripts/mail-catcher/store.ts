import { randomUUID } from 'node:crypto';

export interface CaughtAttachment {
  filename: string;
  contentType: string;
  size: number;
  /** The Content-ID header as sent, with angle brackets. */
  contentId: string | null;
  /** The Content-ID without brackets: what `cid:` URLs in the HTML point to. */
  cid: string | null;
  content: Buffer;
}

export interface CaughtMessage {
  id: string;
  messageId: string | null;
  from: string;
  to: string[];
  cc: string[];
  /** Who the SMTP session said the message was from and for (includes Bcc recipients). */
  envelope: { from: string | null; to: string[] };
  subject: string;
  text: string | null;
  html: string | null;
  /** The Date header (or the moment it arrived, when it had none), ISO 8601. */
  date: string;
  receivedAt: string;
  /** Header name (lower case) → its value as sent, repeated headers joined by a line break. */
  headers: Record<string, string>;
  size: number;
  attachments: CaughtAttachment[];
}

export type NewMessage = Omit<CaughtMessage, 'id' | 'receivedAt'>;

/** The catcher's memory: the last `limit` messages, newest first; older ones fall off the end. */
export function createMessageStore(limit: number) {
  let messages: CaughtMessage[] = [];
  return {
    add(message: NewMessage): CaughtMessage {
      const stored = { id: randomUUID(), receivedAt: new Date().toISOString(), ...message };
      messages.unshift(stored);
      if (messages.length > limit) messages.length = limit;
      return stored;
    },
    list: (): CaughtMessage[] => [...messages],
    get: (id: string): CaughtMessage | undefined => messages.find((message) => message.id === id),
    remove(id: string): boolean {
      const before = messages.length;
      messages = messages.filter((message) => message.id !== id);
      return messages.length < before;
    },
    clear() {
      messages = [];
    },
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;

/** What the JSON API shows of a message: everything but the attachments' bytes, which have their own URL. */
export function messageView(message: CaughtMessage) {
  const { attachments, ...rest } = message;
  return {
    ...rest,
    attachments: attachments.map(({ content: _content, ...attachment }) => ({
      ...attachment,
      url: attachmentPath(message.id, attachment.filename),
    })),
  };
}

export const attachmentPath = (id: string, filename: string) =>
  `/api/email/${encodeURIComponent(id)}/attachment/${encodeURIComponent(filename)}`;
