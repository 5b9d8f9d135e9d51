import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import nodemailer, { type Transporter } from 'nodemailer';
import { startMailCatcher, type MailCatcher } from '../mail-catcher.ts';

/** A real PNG (16×16, random RGB pixels), so the bytes cover the whole 0–255 range. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const size = 16;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(
    Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), randomBytes(size * 3)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface ApiMessage {
  id: string;
  from: string;
  to: string[];
  envelope: { from: string; to: string[] };
  subject: string;
  text: string | null;
  html: string | null;
  date: string;
  headers: Record<string, string>;
  attachments: {
    filename: string;
    contentType: string;
    size: number;
    contentId: string | null;
    cid: string | null;
    url: string;
  }[];
}

let catcher: MailCatcher;
let transport: Transporter;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  transport = nodemailer.createTransport(catcher.smtpUrl);
});
afterAll(async () => {
  transport.close();
  await catcher.close();
});
beforeEach(() => catcher.clear());

const api = (path: string, init?: RequestInit) => fetch(catcher.httpUrl + path, init);
const list = async () => (await (await api('/api/email')).json()) as ApiMessage[];

test('a message with text, html and two attachments arrives whole, bytes included', async () => {
  const image = png();
  const report = Buffer.from('nome;cidade\nJoão;São Paulo\n', 'utf8');
  await transport.sendMail({
    from: '"Educação Farma" <nao-responda@educacaofarma.com.br>',
    to: 'Maria <maria@example.com>, jose@example.com',
    bcc: 'oculto@example.com',
    subject: 'Seu ingresso — Workshop de Farmacovigilância',
    text: 'Olá, Maria!\nSeu ingresso está anexo.',
    html: '<p>Olá, <b>Maria</b>!</p><img src="cid:qr@ingresso" alt="QR Code">',
    headers: { 'Auto-Submitted': 'auto-generated' },
    attachments: [
      { filename: 'ingresso.png', content: image, contentType: 'image/png', cid: 'qr@ingresso' },
      { filename: 'relatório.csv', content: report, contentType: 'text/csv' },
    ],
  });

  const [message, ...others] = await list();
  expect(others).toEqual([]);
  expect(message).toMatchObject({
    from: '"Educação Farma" <nao-responda@educacaofarma.com.br>',
    to: ['maria@example.com', 'jose@example.com'],
    envelope: {
      from: 'nao-responda@educacaofarma.com.br',
      to: ['maria@example.com', 'jose@example.com', 'oculto@example.com'],
    },
    subject: 'Seu ingresso — Workshop de Farmacovigilância',
    text: 'Olá, Maria!\nSeu ingresso está anexo.',
    html: '<p>Olá, <b>Maria</b>!</p><img src="cid:qr@ingresso" alt="QR Code">',
    headers: expect.objectContaining({ 'auto-submitted': 'auto-generated' }),
  });
  expect(Date.now() - Date.parse(message!.date)).toBeLessThan(60_000);
  expect(message!.attachments).toEqual([
    {
      filename: 'ingresso.png',
      contentType: 'image/png',
      size: image.length,
      contentId: '<qr@ingresso>',
      cid: 'qr@ingresso',
      url: `/api/email/${message!.id}/attachment/ingresso.png`,
    },
    {
      filename: 'relatório.csv',
      contentType: 'text/csv',
      size: report.length,
      contentId: null,
      cid: null,
      url: `/api/email/${message!.id}/attachment/${encodeURIComponent('relatório.csv')}`,
    },
  ]);

  const one = await api(`/api/email/${message!.id}`);
  expect(one.status).toBe(200);
  expect(await one.json()).toEqual(message);

  const bytes = await api(message!.attachments[0]!.url);
  expect(bytes.status).toBe(200);
  expect(bytes.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await bytes.arrayBuffer()).equals(image)).toBe(true);
  const csv = await api(message!.attachments[1]!.url);
  expect(csv.headers.get('content-type')).toBe('text/csv');
  expect(Buffer.from(await csv.arrayBuffer()).equals(report)).toBe(true);

  // The in-process view holds the same message, with the bytes.
  const [held] = catcher.messages();
  expect(held!.id).toBe(message!.id);
  expect(held!.attachments[0]!.content.equals(image)).toBe(true);
});

test('the list is newest first; one message or all of them can be deleted', async () => {
  for (const n of [1, 2, 3]) {
    await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: `Mensagem ${n}`, text: `${n}` });
  }
  const messages = await list();
  expect(messages.map((message) => message.subject)).toEqual(['Mensagem 3', 'Mensagem 2', 'Mensagem 1']);

  const removed = await api(`/api/email/${messages[1]!.id}`, { method: 'DELETE' });
  expect(removed.status).toBe(200);
  expect((await list()).map((message) => message.subject)).toEqual(['Mensagem 3', 'Mensagem 1']);

  const cleared = await api('/api/email/all', { method: 'DELETE' });
  expect(cleared.status).toBe(200);
  expect(await list()).toEqual([]);
  expect(catcher.messages()).toEqual([]);
});

test('unknown messages, attachments and routes answer 404 with a message; writes elsewhere 405', async () => {
  await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'Só texto', text: 'oi' });
  const [message] = await list();
  expect(message!.html).toBeNull();
  for (const [path, text] of [
    ['/api/email/nao-existe', 'Mensagem não encontrada'],
    [`/api/email/${message!.id}/attachment/nada.pdf`, 'Anexo não encontrado'],
    ['/api/outra-coisa', 'Rota não encontrada'],
    [`/api/email/${message!.id}/qualquer`, 'Rota não encontrada'],
  ] as const) {
    const response = await api(path);
    expect({ path, status: response.status, body: await response.json() }).toEqual({
      path,
      status: 404,
      body: { message: text },
    });
  }
  const post = await api('/api/email', { method: 'POST' });
  expect(post.status).toBe(405);
  expect(await post.json()).toEqual({ message: 'Método não permitido' });
  expect(await list()).toHaveLength(1);
});

test('the web inbox is a pt-BR page; a message HTML is served sandboxed with its inline images resolved', async () => {
  const image = png();
  await transport.sendMail({
    from: 'a@example.com',
    to: 'b@example.com',
    subject: 'Com imagem',
    html: '<html><head><title>x</title></head><body><img src="cid:logo@marca" alt="Logo"><a href="https://exemplo.com.br">link</a></body></html>',
    attachments: [{ filename: 'logo.png', content: image, contentType: 'image/png', cid: 'logo@marca' }],
  });
  const page = await api('/');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  const body = await page.text();
  expect(body).toContain('<html lang="pt-BR">');
  expect(body).toContain('Caixa de e-mails de teste');
  expect(body).toContain('Apagar todas');
  const script = await api('/inbox.js');
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await script.text()).toContain("setAttribute('sandbox'");

  const [message] = await list();
  const html = await api(`/api/email/${message!.id}/html`);
  expect(html.headers.get('content-security-policy')).toMatch(/sandbox allow-popups/);
  const shown = await html.text();
  expect(shown).toContain(`<img src="/api/email/${message!.id}/attachment/logo.png" alt="Logo">`);
  expect(shown).toContain('<head><base target="_blank">');
  // The stored HTML stays as it was sent.
  expect(message!.html).toContain('src="cid:logo@marca"');
});

test('only the newest messages are kept, and oversized messages are refused', async () => {
  const small = await startMailCatcher({ smtpPort: 0, httpPort: 0, maxMessages: 3, maxMessageBytes: 4096 });
  const client = nodemailer.createTransport(small.smtpUrl);
  try {
    for (let n = 1; n <= 5; n++) {
      await client.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: `N${n}`, text: 'x' });
    }
    expect(small.messages().map((message) => message.subject)).toEqual(['N5', 'N4', 'N3']);

    await expect(
      client.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'Grande', text: 'x'.repeat(20_000) }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(small.messages()).toHaveLength(3);
  } finally {
    client.close();
    await small.close();
  }
});

test('run directly, it listens on the ports given, serves the inbox and stops on SIGTERM', async () => {
  const script = fileURLToPath(new URL('../mail-catcher.ts', import.meta.url));
  const child = spawn(process.execPath, [script, '--smtp-port', '0', '--http-port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const match = /^Caixa de e-mails de teste: (http:\/\/\S+) \(SMTP em (smtp:\/\/\S+)\)$/.exec(line);
    expect(match).not.toBeNull();
    const [, httpUrl, smtpUrl] = match!;
    const client = nodemailer.createTransport(smtpUrl!);
    await client.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'Do processo', text: 'oi' });
    client.close();
    const messages = (await (await fetch(`${httpUrl}/api/email`)).json()) as ApiMessage[];
    expect(messages.map((message) => message.subject)).toEqual(['Do processo']);
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
});
