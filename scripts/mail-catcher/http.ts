import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inboxPage, inboxScript } from './page.ts';
import { attachmentPath, messageView, type CaughtMessage, type MessageStore } from './store.ts';

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; img-src 'self' data:";
// The message's own HTML: no scripts, no forms, links open outside; images may come from anywhere.
const MESSAGE_POLICY =
  "default-src 'none'; img-src 'self' data: http: https:; style-src 'unsafe-inline'; font-src data: http: https:; sandbox allow-popups allow-popups-to-escape-sandbox";

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>) {
  response.writeHead(status, {
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(body);
}

const json = (response: ServerResponse, status: number, value: unknown) =>
  send(response, status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8' });

const notFound = (response: ServerResponse, message: string) => json(response, 404, { message });

/** Points `cid:` images at the attachment URLs and makes links open in a new tab, for viewing in the inbox. */
function viewableHtml(message: CaughtMessage): string {
  let html = message.html ?? '';
  for (const attachment of message.attachments) {
    if (!attachment.cid) continue;
    html = html.split(`cid:${attachment.cid}`).join(attachmentPath(message.id, attachment.filename));
  }
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + base) : base + html;
}

/** The catcher's web side: a JSON API under /api/email and a small inbox at /. */
export function createHttpServer(store: MessageStore): Server {
  function route(request: IncomingMessage, response: ServerResponse) {
    const { pathname } = new URL(request.url ?? '/', 'http://catcher');
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const method = request.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';

    if (pathname === '/' && read) {
      return send(response, 200, inboxPage, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PAGE_POLICY,
      });
    }
    if (pathname === '/inbox.js' && read) {
      return send(response, 200, inboxScript, { 'content-type': 'text/javascript; charset=utf-8' });
    }
    if (parts[0] !== 'api' || parts[1] !== 'email') return notFound(response, 'Rota não encontrada');

    const [, , id, part, filename] = parts;
    const known =
      parts.length === 2 ||
      parts.length === 3 ||
      (parts.length === 4 && (part === 'html' || part === 'text')) ||
      (parts.length === 5 && part === 'attachment');
    if (!known) return notFound(response, 'Rota não encontrada');
    if (method === 'DELETE' && parts.length === 3) {
      if (id === 'all') {
        store.clear();
        return json(response, 200, { deleted: true });
      }
      return store.remove(id!) ? json(response, 200, { deleted: true }) : notFound(response, 'Mensagem não encontrada');
    }
    if (!read) return json(response, 405, { message: 'Método não permitido' });
    if (parts.length === 2) return json(response, 200, store.list().map(messageView));

    const message = store.get(id!);
    if (!message) return notFound(response, 'Mensagem não encontrada');
    if (parts.length === 3) return json(response, 200, messageView(message));
    if (part === 'html') {
      return send(response, 200, viewableHtml(message), {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': MESSAGE_POLICY,
      });
    }
    if (part === 'text') {
      return send(response, 200, message.text ?? '', { 'content-type': 'text/plain; charset=utf-8' });
    }
    const attachment = message.attachments.find((candidate) => candidate.filename === filename);
    if (!attachment) return notFound(response, 'Anexo não encontrado');
    return send(response, 200, attachment.content, {
      'content-type': attachment.contentType,
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`,
      // An HTML or SVG attachment is shown, never run.
      'content-security-policy': 'sandbox',
    });
  }

  return createServer((request, response) => {
    try {
      route(request, response);
    } catch (error) {
      if (error instanceof URIError) return json(response, 400, { message: 'Endereço inválido' });
      json(response, 500, { message: 'Erro interno' });
    }
  });
}

export async function listenHttp(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
