import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventPayload } from '@ticketing/proto';
import { PUBLIC_URL, useMailAndCatcher, waitFor, type EmailRow } from './support.ts';

/** The courtesy service's internal API, as far as mail uses it: the files attached to mass sends. */
interface ServedFile {
  body: Buffer;
  contentType: string;
  /** While true the file is answered with a 500. */
  failing: boolean;
  requests: number;
}
const files = new Map<string, ServedFile>();
let courtesy: Server;
let courtesyUrl: string;

beforeAll(async () => {
  courtesy = createServer((request, response) => {
    const match = /^\/internal\/attachments\/([\w-]+)$/.exec(request.url ?? '');
    const file = match && request.method === 'GET' ? files.get(match[1]!) : undefined;
    if (!file) return response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"não"}');
    file.requests++;
    if (file.failing) return response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"x"}');
    response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => courtesy.listen(0, '127.0.0.1', resolve));
  courtesyUrl = `http://127.0.0.1:${(courtesy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  courtesy.closeAllConnections();
  await new Promise((resolve) => courtesy.close(resolve));
});

// Retries come quickly here, so a file that could not be fetched is tried again within the test.
const setup = useMailAndCatcher(() => ({
  COURTESY_URL: courtesyUrl,
  MAIL_RETRY_BASE_MS: '50',
  MAIL_RETRY_MAX_MS: '200',
}));

const receivedBy = (address: string) => setup.catcher.messages().filter((message) => message.to.includes(address));
const serve = (file: Omit<ServedFile, 'requests'>) => {
  const id = randomUUID();
  files.set(id, { ...file, requests: 0 });
  return id;
};
const pdf = () =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 2048 }, (_, i) => i % 256))]);

function invitation(overrides: Partial<EventPayload<'courtesy.invited'>> = {}): EventPayload<'courtesy.invited'> {
  const code = `CDPI${randomUUID().slice(0, 8).toUpperCase()}`;
  return {
    invitationId: randomUUID(),
    jobId: randomUUID(),
    linkId: randomUUID(),
    code,
    redeemUrl: `${PUBLIC_URL}/cortesia?code=${code}`,
    ticketCount: 2,
    overridePrice: null,
    recipient: { name: 'Luciana Ferreira Alves', email: `${randomUUID()}@example.com.br` },
    event: {
      title: 'Congresso de Assuntos Regulatórios',
      date: '2027-05-20T12:30:00.000Z',
      location: 'Centro de Convenções Rebouças — São Paulo, SP',
    },
    attachment: null,
    ...overrides,
  };
}

test('an invitation sends one e-mail with the event, the tickets, the code and the link to redeem it', async () => {
  const payload = invitation();
  const event = await setup.harness.publish('courtesy.invited', payload);
  const row = await setup.harness.rowFor(event.id, 'courtesy-invitation');

  const [message, ...others] = await waitFor(
    () => receivedBy(payload.recipient.email).length > 0 && receivedBy(payload.recipient.email),
  );
  expect(others).toEqual([]);
  expect(message).toMatchObject({
    to: [payload.recipient.email],
    subject: 'Você recebeu uma cortesia: Congresso de Assuntos Regulatórios',
    messageId: `<${row.id}@educacaofarma.com.br>`,
  });
  expect(message.text).toMatch(/^Olá, Luciana!\n/);
  expect(message.text).toContain('Você recebeu um convite para o evento Congresso de Assuntos Regulatórios.');
  expect(message.text).toContain('Data: quinta-feira, 20 de maio de 2027');
  expect(message.text).toContain('Horário: 09:30');
  expect(message.text).toContain('Local: Centro de Convenções Rebouças — São Paulo, SP');
  expect(message.text).toContain('Ingressos: 2 ingressos');
  expect(message.text).toContain(`Seu código de cortesia: ${payload.code}`);
  expect(message.text).toContain(`\n${payload.redeemUrl}\n`);
  expect(message.text).toContain('você precisará entrar na sua conta ou criar uma');
  expect(message.text).toContain('Valor: Cortesia (grátis)');
  expect(message.text).not.toContain('Preço promocional');
  expect(message.text).not.toContain('R$');
  expect(message.html).toMatch(
    new RegExp(`<a\\s+href="${payload.redeemUrl.replaceAll('?', '\\?')}"[^>]*>Resgatar cortesia</a\\s*>`),
  );
  expect(message.html).toMatch(new RegExp(`>\\s*${payload.code}\\s*</td>`));
  expect(message.html).toContain('<strong>Congresso de Assuntos Regulatórios</strong>');
  expect(message.html).toContain('quinta-feira, 20 de maio de 2027');
  expect(message.html).not.toContain('Preço promocional');
  expect(message.attachments).toEqual([]);

  expect(row).toMatchObject({ template: 'courtesy-invitation', user_id: null, attempts: 1, attachments: [] });
  expect(setup.harness.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'e-mail queued', eventId: event.id, template: 'courtesy-invitation' }),
  );
});

test('a link with a promotional price shows it in reais; one ticket reads in the singular', async () => {
  const payload = invitation({ overridePrice: '80.00', ticketCount: 1 });
  await setup.harness.publish('courtesy.invited', payload);
  const [message] = await waitFor(
    () => receivedBy(payload.recipient.email).length > 0 && receivedBy(payload.recipient.email),
  );
  expect(message.text).toContain('Preço promocional: R$\u00a080,00\n');
  expect(message.text).toContain('Ingressos: 1 ingresso\n');
  expect(message.text).not.toContain('grátis');
  expect(message.html).toContain('R$\u00a080,00');
});

test('the file of the mass send is fetched from the courtesy service and arrives with the e-mail', async () => {
  const bytes = pdf();
  const id = serve({ body: bytes, contentType: 'application/pdf', failing: false });
  const payload = invitation({
    attachment: { id, filename: 'Programação do congresso.pdf', contentType: 'application/pdf' },
  });
  const event = await setup.harness.publish('courtesy.invited', payload);
  const row = await setup.harness.rowFor(event.id, 'courtesy-invitation');

  const [message, ...others] = await waitFor(
    () => receivedBy(payload.recipient.email).length > 0 && receivedBy(payload.recipient.email),
  );
  expect(others).toEqual([]);
  expect(message.attachments.map(({ filename, contentType, size }) => ({ filename, contentType, size }))).toEqual([
    { filename: 'Programação do congresso.pdf', contentType: 'application/pdf', size: bytes.length },
  ]);
  expect(message.attachments[0]!.content.equals(bytes)).toBe(true);
  expect(message.text).toContain('Enviamos junto a este e-mail o arquivo Programação do congresso.pdf.');
  // The queue keeps a reference to the file, not its bytes.
  expect(row.attachments).toEqual([
    {
      filename: 'Programação do congresso.pdf',
      contentType: 'application/pdf',
      href: `${courtesyUrl}/internal/attachments/${id}`,
    },
  ]);
  expect(files.get(id)!.requests).toBe(1);
});

test('a file the courtesy service cannot serve yet is retried; the e-mail never goes out without it', async () => {
  const bytes = pdf();
  const id = serve({ body: bytes, contentType: 'application/pdf', failing: true });
  const payload = invitation({ attachment: { id, filename: 'convite.pdf', contentType: 'application/pdf' } });
  const event = await setup.harness.publish('courtesy.invited', payload);

  const waiting = await waitFor(async () => {
    const [row] = await setup.harness.rows({ dedupe_key: `${event.id}:courtesy-invitation` });
    return row?.status === 'pending' && row.attempts >= 2 ? (row as EmailRow) : undefined;
  });
  expect(waiting.last_error).toBe(
    `ESTREAM Invalid status code 500 (attachment ${courtesyUrl}/internal/attachments/${id})`,
  );
  expect(files.get(id)!.requests).toBeGreaterThanOrEqual(2);
  const retries = setup.harness.logs.lines.filter(
    (line) => line.msg === 'e-mail delivery failed; will retry' && line.emailId === waiting.id,
  );
  expect(retries.slice(0, 2).map((line) => line.attempt)).toEqual([1, 2]);
  expect(receivedBy(payload.recipient.email)).toEqual([]);

  files.get(id)!.failing = false;
  const sent = await setup.harness.rowFor(event.id, 'courtesy-invitation');
  expect(sent.attempts).toBeGreaterThan(waiting.attempts);
  const [message, ...others] = await waitFor(
    () => receivedBy(payload.recipient.email).length > 0 && receivedBy(payload.recipient.email),
  );
  expect(others).toEqual([]);
  expect(message.attachments.map(({ filename, contentType }) => [filename, contentType])).toEqual([
    ['convite.pdf', 'application/pdf'],
  ]);
  expect(message.attachments[0]!.content.equals(bytes)).toBe(true);
});

test('an invitation delivered twice queues and sends one e-mail', async () => {
  const id = serve({ body: pdf(), contentType: 'application/pdf', failing: false });
  const payload = invitation({ attachment: { id, filename: 'convite.pdf', contentType: 'application/pdf' } });
  const event = await setup.harness.publish('courtesy.invited', payload);
  await setup.harness.rowFor(event.id, 'courtesy-invitation');
  const duplicates = () =>
    setup.harness.metric('bus_events_handled_total', { topic: 'courtesy.invited', outcome: 'duplicate' });
  const duplicatesBefore = await duplicates();

  // The relay publishes the same envelope again, as after a crash between publishing and marking it published.
  await setup.harness.producer.db('outbox').where({ id: event.id }).update({ published_at: null });
  await waitFor(async () => (await setup.harness.producer.db('outbox').where({ id: event.id }).first()).published_at);
  await waitFor(async () => (await duplicates()) === duplicatesBefore + 1);

  expect(await setup.harness.rows({ to: payload.recipient.email })).toHaveLength(1);
  expect(receivedBy(payload.recipient.email)).toHaveLength(1);
  expect(files.get(id)!.requests).toBe(1);
});
