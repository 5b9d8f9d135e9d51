import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { NewMessage } from './store.ts';

export interface SmtpOptions {
  maxMessageBytes: number;
  onMessage(message: NewMessage): void;
}

/** Smtp-server that accepts anything (no TLS, any or no login) and hands each parsed message over. */
export function createSmtpServer({ maxMessageBytes, onMessage }: SmtpOptions): SMTPServer {
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonimo' }),
    size: maxMessageBytes,
    banner: 'Caixa de e-mails de teste',
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      // The message is stored before the client hears "250": once a send resolves, the message is there.
      simpleParser(stream, { skipImageLinks: true }).then(
        (parsed) => {
          if (stream.sizeExceeded) {
            const error = new Error(`Mensagem maior que o limite de ${maxMessageBytes} bytes`);
            return callback(Object.assign(error, { responseCode: 552 }));
          }
          onMessage(toMessage(parsed, session.envelope, stream.byteLength));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A sender that vanishes mid-session (a crashed or killed mail process) resets its socket: that ends its
  // session, not the catcher.
  server.on('error', () => {});
  return server;
}

export async function listenSmtp(server: SMTPServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  return (server.server.address() as AddressInfo).port;
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((object) => object.value)
    .flatMap(function flatten(entry): string[] {
      return entry.group ? entry.group.flatMap(flatten) : entry.address ? [entry.address] : [];
    });

function headerMap(parsed: ParsedMail): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    headers[key] = key in headers ? `${headers[key]}\n${value}` : value;
  }
  return headers;
}

function toMessage(
  parsed: ParsedMail,
  envelope: { mailFrom: SMTPServerAddress | false; rcptTo: SMTPServerAddress[] },
  size: number,
): NewMessage {
  return {
    messageId: parsed.messageId ?? null,
    from: parsed.from?.text ?? '',
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    envelope: {
      from: envelope.mailFrom ? envelope.mailFrom.address : null,
      to: envelope.rcptTo.map((recipient) => recipient.address),
    },
    subject: parsed.subject ?? '',
    text: parsed.text ?? null,
    html: parsed.html === false ? null : parsed.html,
    date: (parsed.date ?? new Date()).toISOString(),
    headers: headerMap(parsed),
    size,
    attachments: parsed.attachments.map((attachment, index) => ({
      filename: attachment.filename ?? `anexo-${index + 1}`,
      contentType: attachment.contentType,
      size: attachment.size,
      contentId: attachment.contentId ?? null,
      cid: attachment.cid ?? null,
      content: attachment.content,
    })),
  };
}
