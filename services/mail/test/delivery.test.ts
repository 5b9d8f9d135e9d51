import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ZodError } from 'zod';
import { msUntilNextDue } from '../src/data/email-queue.ts';
import { dedupeKeyFor, queueEmail } from '../src/index.ts';
import { closedPort, startCatcher, startMail, waitFor, type EmailRow, type MailHarness } from './support.ts';

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const person = () => ({ userId: randomUUID(), email: `${randomUUID()}@example.com.br`, name: 'Carla Dias' });

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});
const track = <T extends { close(): Promise<unknown> }>(item: T) => (open.push(item), item);
const harnessOf = async (env: Record<string, string>) => {
  const harness = await startMail(env);
  track({ close: () => harness.stop() });
  return harness;
};
const catcherOn = async (port = 0) => track(await startCatcher(port));
const logsOf = (harness: MailHarness, msg: string, emailId: string) =>
  harness.logs.lines.filter((line) => line.msg === msg && line.emailId === emailId);

test('with SMTP down the e-mail waits, retried with back-off, and is sent once SMTP is back', async () => {
  const port = await closedPort();
  const harness = await harnessOf({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_RETRY_BASE_MS: '40',
    MAIL_RETRY_MAX_MS: '200',
    MAIL_MAX_ATTEMPTS: '1000',
  });
  const user = person();
  const event = await harness.publish('user.verification-code-issued', {
    ...user,
    code: '246810',
    expiresAt: inMinutes(15),
  });

  const waiting = await waitFor(async () => {
    const [row] = await harness.rows({ user_id: user.userId });
    return row?.status === 'pending' && row.attempts >= 3 ? (row as EmailRow) : undefined;
  });
  expect(waiting.last_error).toMatch(/^ESOCKET connect ECONNREFUSED 127.0.0.1:\d+$/);
  expect(waiting.processed_at).toBeNull();
  expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(waiting.created_at.getTime());
  const retries = logsOf(harness, 'e-mail delivery failed; will retry', waiting.id);
  expect(retries.slice(0, 3).map((line) => line.attempt)).toEqual([1, 2, 3]);
  // Back-off: each wait is at least half of base × 2^(attempt−1), within the cap.
  for (const line of retries.slice(0, 3)) {
    const ceiling = Math.min(200, 40 * 2 ** ((line.attempt as number) - 1));
    expect(line.retryInMs).toBeGreaterThanOrEqual(ceiling / 2);
    expect(line.retryInMs).toBeLessThanOrEqual(ceiling);
    expect(line.error).toMatch(/ECONNREFUSED/);
  }
  expect(await harness.metric('mail_queue_pending')).toBe(1);
  expect(await harness.metric('mail_delivery_retries_total', { template: 'verification-code' })).toBeGreaterThanOrEqual(
    3,
  );

  const catcher = await catcherOn(port);
  const sent = await harness.rowFor(event.id, 'verification-code');
  expect(sent.attempts).toBeGreaterThan(waiting.attempts);
  expect(sent.last_error).toMatch(/ECONNREFUSED/); // the last failure stays on record
  expect(catcher.messages().map((message) => message.to)).toEqual([[user.email]]);
  expect(await harness.metric('mail_queue_pending')).toBe(0);
  expect(await harness.metric('mail_emails_sent_total', { template: 'verification-code' })).toBe(1);
});

test('after MAIL_MAX_ATTEMPTS the e-mail is marked failed and kept', async () => {
  const port = await closedPort();
  const harness = await harnessOf({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_MAX_ATTEMPTS: '3',
    MAIL_RETRY_BASE_MS: '10',
    MAIL_RETRY_MAX_MS: '20',
  });
  const user = person();
  const event = await harness.publish('user.password-reset-requested', {
    ...user,
    token: 't0k',
    expiresAt: inMinutes(60),
  });

  const row = await harness.rowFor(event.id, 'password-reset', 'failed');
  expect(row).toMatchObject({ attempts: 3, to: user.email, subject: 'Redefinição de senha' });
  expect(row.last_error).toMatch(/ECONNREFUSED/);
  expect(row.processed_at).toBeInstanceOf(Date);
  expect(row.html).toContain('Criar nova senha');
  expect(logsOf(harness, 'e-mail delivery failed; will retry', row.id).map((line) => line.attempt)).toEqual([1, 2]);
  expect(logsOf(harness, 'e-mail delivery failed; no attempts left', row.id)).toEqual([
    expect.objectContaining({ level: 50, attempt: 3, template: 'password-reset' }),
  ]);
  expect(await harness.metric('mail_emails_failed_total', { template: 'password-reset' })).toBe(1);
  expect(await harness.metric('mail_queue_pending')).toBe(0);

  // A failed e-mail is not picked up again, even with SMTP back.
  const catcher = await catcherOn(port);
  const later = await harness.publish('user.verification-code-issued', {
    ...user,
    code: '135790',
    expiresAt: inMinutes(15),
  });
  await harness.rowFor(later.id, 'verification-code');
  expect(catcher.messages().map((message) => message.subject)).toEqual(['Seu código de verificação']);
  expect((await harness.rows({ id: row.id }))[0]).toMatchObject({ status: 'failed', attempts: 3 });
});

test('a recipient the server refuses (5xx) fails at once, without retries', async () => {
  const refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) =>
      callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 })),
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  track({ close: () => new Promise<void>((resolve) => refusing.close(resolve)) });
  const { port } = refusing.server.address() as AddressInfo;
  const harness = await harnessOf({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_MS: '10' });

  const event = await harness.publish('user.verification-code-issued', {
    ...person(),
    code: '999000',
    expiresAt: inMinutes(15),
  });
  const row = await harness.rowFor(event.id, 'verification-code', 'failed');
  expect(row.attempts).toBe(1);
  expect(row.last_error).toMatch(/^EENVELOPE 550 .*Mailbox does not exist/);
  expect(logsOf(harness, 'e-mail refused by the SMTP server; not retrying', row.id)).toHaveLength(1);
  expect(await harness.metric('mail_emails_failed_total', { template: 'verification-code' })).toBe(1);
});

test('nothing is lost across a stop: stored, unconsumed and interrupted e-mails are all sent after a restart', async () => {
  const port = await closedPort();
  const harness = await harnessOf({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_MS: '600000' });
  const stored = person();
  const storedEvent = await harness.publish('user.verification-code-issued', {
    ...stored,
    code: '100200',
    expiresAt: inMinutes(15),
  });
  const failedOnce = await waitFor(async () => {
    const [row] = await harness.rows({ user_id: stored.userId });
    return row?.status === 'pending' && row.attempts === 1 ? (row as EmailRow) : undefined;
  });

  await harness.mail.close();
  // While the service is down: an event waits on the bus, the stored e-mail becomes due, and another one was
  // being sent when its worker died (its claim has lapsed).
  const unconsumed = person();
  const unconsumedEvent = await harness.publish('user.password-reset-requested', {
    ...unconsumed,
    token: 'abc',
    expiresAt: inMinutes(60),
  });
  const queue = () => harness.producer.db.withSchema(harness.schema).table('email_queue');
  await queue().where({ id: failedOnce.id }).update({ next_attempt_at: new Date() });
  const interruptedTo = `${randomUUID()}@example.com.br`;
  await queue().insert({
    dedupe_key: `${randomUUID()}:verification-code`,
    template: 'verification-code',
    to: interruptedTo,
    subject: 'Seu código de verificação',
    html: '<p>777777</p>',
    text: '777777',
    status: 'sending',
    attempts: 1,
    next_attempt_at: new Date(Date.now() - 1000),
  });

  const catcher = await catcherOn(port);
  await harness.restart();

  await harness.rowFor(storedEvent.id, 'verification-code');
  await harness.rowFor(unconsumedEvent.id, 'password-reset');
  const [interrupted] = await waitFor(async () => {
    const rows = await harness.rows({ to: interruptedTo, status: 'sent' });
    return rows.length > 0 && rows;
  });
  expect(interrupted!.attempts).toBe(2);
  expect(
    logsOf(harness, 'resuming an interrupted delivery; the e-mail may arrive twice', interrupted!.id),
  ).toHaveLength(1);
  expect(
    catcher
      .messages()
      .flatMap((message) => message.to)
      .sort(),
  ).toEqual([stored.email, unconsumed.email, interruptedTo].sort());
});

test('two replicas share the queue: every e-mail is claimed and sent exactly once', async () => {
  const catcher = await catcherOn();
  const env = { SMTP_URL: catcher.smtpUrl, MAIL_POLL_MS: '20', MAIL_BATCH_SIZE: '4' };
  const harness = await harnessOf(env);
  const replica = track(await harness.replica(env));

  const addresses = Array.from({ length: 40 }, (_, i) => `pessoa${i}-${randomUUID()}@example.com.br`);
  // Stored in one go, outside any consumer: no replica is woken, both find them on their poll.
  await harness.mail.db.transaction(async (trx) => {
    for (const to of addresses) {
      await queueEmail(
        trx,
        { template: 'verification-code', to, userId: null, data: { name: 'Pessoa', code: '121212', validMinutes: 15 } },
        { dedupeKey: dedupeKeyFor(randomUUID(), 'verification-code') },
      );
    }
  });

  await waitFor(async () => (await harness.rows({ status: 'sent' })).length === addresses.length);
  const rows = await harness.rows();
  expect(rows.map((row) => row.attempts)).toEqual(addresses.map(() => 1));
  expect(
    catcher
      .messages()
      .flatMap((message) => message.to)
      .sort(),
  ).toEqual([...addresses].sort());
  const sentBy = async (service: { metrics: MailHarness['mail']['metrics'] }) =>
    (await service.metrics.registry.getSingleMetric('mail_emails_sent_total')!.get()).values.reduce(
      (sum, entry) => sum + entry.value,
      0,
    );
  expect((await sentBy(harness.mail)) + (await sentBy(replica))).toBe(addresses.length);
});

test('attachments, inline (base64 with a cid) or by reference, arrive byte for byte', async () => {
  const catcher = await catcherOn();
  const harness = await harnessOf({ SMTP_URL: catcher.smtpUrl });
  const image = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eLoScQAAAABJRU5ErkJggg==',
    'base64',
  );
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
  const files: Server = createServer((request, response) => {
    if (request.url !== '/programa.pdf') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  track({ close: () => new Promise((resolve) => files.close(resolve)) });
  const href = `http://127.0.0.1:${(files.address() as AddressInfo).port}/programa.pdf`;

  const to = `${randomUUID()}@example.com.br`;
  await harness.mail.db.transaction((trx) =>
    queueEmail(
      trx,
      {
        template: 'verification-code',
        to,
        userId: null,
        data: { name: 'Beatriz', code: '808080', validMinutes: 15 },
        attachments: [
          {
            filename: 'qrcode.png',
            contentType: 'image/png',
            content: image.toString('base64'),
            cid: 'qrcode@ingresso',
          },
          { filename: 'programa.pdf', contentType: 'application/pdf', href },
        ],
      },
      { dedupeKey: dedupeKeyFor(randomUUID(), 'verification-code') },
    ),
  );
  const [message] = await waitFor(() => {
    const found = catcher.messages().filter((candidate) => candidate.to.includes(to));
    return found.length > 0 && found;
  });
  expect(message!.attachments.map(({ content: _content, ...rest }) => rest)).toEqual([
    {
      filename: 'qrcode.png',
      contentType: 'image/png',
      size: image.length,
      contentId: '<qrcode@ingresso>',
      cid: 'qrcode@ingresso',
    },
    { filename: 'programa.pdf', contentType: 'application/pdf', size: pdf.length, contentId: null, cid: null },
  ]);
  expect(message!.attachments[0]!.content.equals(image)).toBe(true);
  expect(message!.attachments[1]!.content.equals(pdf)).toBe(true);
  // The queue keeps the inline file's bytes and the other's reference.
  const [row] = await harness.rows({ to });
  expect(row!.attachments).toEqual([
    { filename: 'qrcode.png', contentType: 'image/png', content: image.toString('base64'), cid: 'qrcode@ingresso' },
    { filename: 'programa.pdf', contentType: 'application/pdf', href },
  ]);
});

test('an attachment that cannot be fetched fails the attempt like SMTP would: retried, then failed, never sent without it', async () => {
  const catcher = await catcherOn();
  const harness = await harnessOf({
    SMTP_URL: catcher.smtpUrl,
    MAIL_MAX_ATTEMPTS: '3',
    MAIL_RETRY_BASE_MS: '10',
    MAIL_RETRY_MAX_MS: '20',
  });
  const href = `http://127.0.0.1:${await closedPort()}/internal/attachments/${randomUUID()}`;
  const [withFile, withoutFile] = [`${randomUUID()}@example.com.br`, `${randomUUID()}@example.com.br`];
  const request = (to: string, attachments: { filename: string; contentType: string; href: string }[]) =>
    harness.mail.db.transaction((trx) =>
      queueEmail(
        trx,
        {
          template: 'verification-code',
          to,
          userId: null,
          data: { name: 'Beatriz', code: '808080', validMinutes: 15 },
          attachments,
        },
        { dedupeKey: dedupeKeyFor(randomUUID(), 'verification-code') },
      ),
    );
  await request(withFile, [{ filename: 'programa.pdf', contentType: 'application/pdf', href }]);
  await request(withoutFile, []);

  const [failed] = await waitFor(async () => {
    const rows = await harness.rows({ to: withFile, status: 'failed' });
    return rows.length > 0 && rows;
  });
  expect(failed!.attempts).toBe(3);
  expect(failed!.last_error).toMatch(new RegExp(`^ESTREAM .*ECONNREFUSED.* \\(attachment ${href}\\)$`));
  expect(logsOf(harness, 'e-mail delivery failed; will retry', failed!.id).map((line) => line.attempt)).toEqual([1, 2]);
  expect(logsOf(harness, 'e-mail delivery failed; no attempts left', failed!.id)).toHaveLength(1);
  expect(await harness.metric('mail_emails_failed_total', { template: 'verification-code' })).toBe(1);
  // The other e-mail went out over the same pool; the one whose file was missing never did.
  await waitFor(async () => (await harness.rows({ to: withoutFile, status: 'sent' })).length === 1);
  expect(catcher.messages().map((message) => message.to)).toEqual([[withoutFile]]);
});

test('bad attachments and recipients are refused before anything is stored', async () => {
  const catcher = await catcherOn();
  const harness = await harnessOf({ SMTP_URL: catcher.smtpUrl });
  const base = {
    template: 'verification-code' as const,
    userId: null,
    data: { name: 'Beatriz', code: '808080', validMinutes: 15 },
  };
  const attempts = [
    { ...base, to: 'nao-e-um-endereco' },
    {
      ...base,
      to: 'ok@example.com.br',
      attachments: [{ filename: 'a.png', contentType: 'image/png', content: 'não é base64!' }],
    },
    {
      ...base,
      to: 'ok@example.com.br',
      attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', href: 'file:///etc/passwd' }],
    },
    { ...base, to: 'ok@example.com.br', data: { ...base.data, code: '12ab56' } },
  ];
  for (const request of attempts) {
    await expect(
      harness.mail.db.transaction((trx) =>
        queueEmail(trx, request as never, { dedupeKey: dedupeKeyFor(randomUUID(), 'verification-code') }),
      ),
    ).rejects.toBeInstanceOf(ZodError);
  }
  expect(await harness.rows()).toEqual([]);
});

test('the worker knows when the next e-mail is due; an empty queue has no due time', async () => {
  const catcher = await catcherOn();
  const harness = await harnessOf({ SMTP_URL: catcher.smtpUrl, MAIL_POLL_MS: '600000' });
  const db = harness.mail.db;
  expect(await msUntilNextDue(db, 8)).toBeNull();
  await db('email_queue').insert({
    dedupe_key: `${randomUUID()}:verification-code`,
    template: 'verification-code',
    to: 'later@example.com.br',
    subject: 'Seu código de verificação',
    html: '<p>1</p>',
    text: '1',
    attempts: 1,
    next_attempt_at: db.raw("now() + interval '60 seconds'"),
  });
  const dueIn = await msUntilNextDue(db, 8);
  expect(dueIn).toBeGreaterThan(55_000);
  expect(dueIn).toBeLessThanOrEqual(60_000);
  // A row out of attempts is not waited for (the next round marks it failed).
  expect(await msUntilNextDue(db, 1)).toBeNull();
  expect(catcher.messages()).toEqual([]);
});
