import { randomUUID } from 'node:crypto';
import { brand } from '@ticketing/proto';
import { waitFor, PUBLIC_URL, useMailAndCatcher } from './support.ts';
import { dedupeKeyFor, queueEmail } from '../src/index.ts';

const setup = useMailAndCatcher();

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const person = (name = 'Maria Aparecida Souza') => ({
  userId: randomUUID(),
  email: `${randomUUID()}@example.com.br`,
  name,
});
/** The messages the catcher received for one address. */
const receivedBy = (address: string) => setup.catcher.messages().filter((message) => message.to.includes(address));

test('a verification code event sends one e-mail with the code, valid for 15 minutes', async () => {
  const user = person();
  const event = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '483920',
    expiresAt: inMinutes(15),
  });
  const row = await setup.harness.rowFor(event.id, 'verification-code');

  const [message, ...others] = await waitFor(() => receivedBy(user.email).length > 0 && receivedBy(user.email));
  expect(others).toEqual([]);
  expect(message).toMatchObject({
    from: '"Educação Farma" <nao-responda@educacaofarma.com.br>',
    to: [user.email],
    subject: 'Seu código de verificação',
    messageId: `<${row.id}@educacaofarma.com.br>`,
    headers: expect.objectContaining({ 'auto-submitted': 'auto-generated' }),
  });
  expect(message.text).toContain('Olá, Maria!');
  expect(message.text).toContain('\n    483920\n');
  expect(message.text).toContain('Este código é válido por 15 minutos.');
  expect(message.text).toContain(`Dúvidas? ${brand.supportEmail} · ${brand.supportPhone}`);
  expect(message.html).toContain('<html lang="pt-BR">');
  expect(message.html).toMatch(/font-size:36px[^>]*>483920<\/span\s*>/);
  expect(message.html).toContain('válido por <strong>15 minutos</strong>');
  expect(message.html).toMatch(new RegExp(`font-size:22px;[^>]*color:#ffffff;">\\s*${brand.name}\\s*</p>`));
  expect(message.html).toContain(`href="mailto:${brand.supportEmail}"`);

  expect(row).toMatchObject({
    template: 'verification-code',
    user_id: user.userId,
    to: user.email,
    subject: 'Seu código de verificação',
    status: 'sent',
    attempts: 1,
    last_error: null,
    attachments: [],
  });
  expect(row.text).toBe(message.text);
  expect(row.html).toBe(message.html);
  expect(row.processed_at!.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());

  const lines = setup.harness.logs.lines;
  expect(lines).toContainEqual(
    expect.objectContaining({
      msg: 'e-mail queued',
      eventId: event.id,
      template: 'verification-code',
      emailId: row.id,
    }),
  );
  expect(lines).toContainEqual(
    expect.objectContaining({ msg: 'e-mail sent', emailId: row.id, attempt: 1, messageId: message.messageId }),
  );
  // Logs of the delivery carry the event's correlation id, and never the address.
  const sent = lines.find((line) => line.msg === 'e-mail sent' && line.emailId === row.id)!;
  expect(sent.requestId).toBe(row.correlation_id);
  expect(JSON.stringify(lines)).not.toContain(user.email);
  expect(
    await setup.harness.metric('mail_emails_sent_total', { template: 'verification-code' }),
  ).toBeGreaterThanOrEqual(1);
});

test('a password reset event sends one e-mail with the single-use link, valid for 1 hour', async () => {
  const user = person('João');
  const token = `tok_${randomUUID()}-Ab9`;
  const event = await setup.harness.publish('user.password-reset-requested', {
    ...user,
    token,
    expiresAt: inMinutes(60),
  });
  const row = await setup.harness.rowFor(event.id, 'password-reset');
  const url = `${PUBLIC_URL}/reset-password?token=${token}`;

  const [message, ...others] = await waitFor(() => receivedBy(user.email).length > 0 && receivedBy(user.email));
  expect(others).toEqual([]);
  expect(message.subject).toBe('Redefinição de senha');
  expect(message.text).toContain('Olá, João!');
  expect(message.text).toContain(`\n${url}\n`);
  expect(message.text).toContain('O link é válido por 1 hora e só pode ser usado uma vez.');
  expect(message.text).toContain('Se você não solicitou, ignore este e-mail');
  expect(message.html).toMatch(new RegExp(`<a\\s+href="${url.replaceAll('?', '\\?')}"[^>]*>Criar nova senha</a\\s*>`));
  expect(message.html).toContain(`>${url}</a>`);
  expect(message.html).toContain('válido por <strong>1 hora</strong>');
  expect(message.html).toContain('Se você não solicitou, ignore este e-mail');
  expect(row).toMatchObject({ template: 'password-reset', status: 'sent', attempts: 1, to: user.email });
});

test('a sign-in link event sends one e-mail with the single-use link, valid for 15 minutes', async () => {
  const user = person('João');
  const token = `tok_${randomUUID()}-Ab9`;
  const event = await setup.harness.publish('user.sign-in-link-requested', {
    ...user,
    token,
    expiresAt: inMinutes(15),
  });
  const row = await setup.harness.rowFor(event.id, 'sign-in-link');
  const url = `${PUBLIC_URL}/entrar-com-link?token=${token}`;

  const [message, ...others] = await waitFor(() => receivedBy(user.email).length > 0 && receivedBy(user.email));
  expect(others).toEqual([]);
  expect(message.subject).toBe('Seu link de acesso');
  expect(message.text).toContain(`\n${url}\n`);
  expect(message.text).toContain('O link é válido por 15 minutos e só pode ser usado uma vez.');
  expect(message.html).toMatch(
    new RegExp(`<a\\s+href="${url.replaceAll('?', '\\?')}"[^>]*>Entrar na minha conta</a\\s*>`),
  );
  expect(row).toMatchObject({ template: 'sign-in-link', status: 'sent', attempts: 1, to: user.email });
});

test('a refused registration tells the account owner which of their data was used', async () => {
  const user = person('João');
  const event = await setup.harness.publish('user.registration-attempted', { ...user, taken: ['cpf'] });
  const row = await setup.harness.rowFor(event.id, 'registration-attempted');

  const [message, ...others] = await waitFor(() => receivedBy(user.email).length > 0 && receivedBy(user.email));
  expect(others).toEqual([]);
  expect(message.subject).toBe('Tentativa de cadastro com os seus dados');
  expect(message.text).toContain('com o seu CPF, que já pertence à sua conta. Nenhuma conta nova foi criada.');
  expect(message.text).toContain(`${PUBLIC_URL}/forgot-password`);
  expect(row).toMatchObject({ template: 'registration-attempted', status: 'sent', to: user.email });
});

test('names are escaped in the HTML, never run', async () => {
  const user = person('<script>alert("x")</script> & <img src=x onerror=alert(1)>');
  const event = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '000111',
    expiresAt: inMinutes(15),
  });
  await setup.harness.rowFor(event.id, 'verification-code');
  const [message] = await waitFor(() => receivedBy(user.email).length > 0 && receivedBy(user.email));
  expect(message.html).not.toContain('<script');
  expect(message.html).toContain('Olá, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;!');
  expect(message.text).toContain('Olá, <script>alert("x")</script>!');
});

test('the same event delivered twice queues and sends one e-mail', async () => {
  const user = person();
  const event = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '555123',
    expiresAt: inMinutes(15),
  });
  await setup.harness.rowFor(event.id, 'verification-code');
  const duplicatesBefore = await setup.harness.metric('bus_events_handled_total', {
    topic: 'user.verification-code-issued',
    outcome: 'duplicate',
  });

  // The relay publishes the same envelope again, as after a crash between publishing and marking it published.
  await setup.harness.producer.db('outbox').where({ id: event.id }).update({ published_at: null });
  await waitFor(async () => (await setup.harness.producer.db('outbox').where({ id: event.id }).first()).published_at);
  await waitFor(
    async () =>
      (await setup.harness.metric('bus_events_handled_total', {
        topic: 'user.verification-code-issued',
        outcome: 'duplicate',
      })) ===
      duplicatesBefore + 1,
  );

  expect(await setup.harness.rows({ user_id: user.userId })).toHaveLength(1);
  expect(receivedBy(user.email)).toHaveLength(1);
});

test('user.deleted removes the personal content of the user’s e-mails and keeps their record', async () => {
  const user = person();
  const other = person();
  const first = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '111111',
    expiresAt: inMinutes(15),
  });
  const second = await setup.harness.publish('user.password-reset-requested', {
    ...user,
    token: 'segredo',
    expiresAt: inMinutes(60),
  });
  const kept = await setup.harness.publish('user.verification-code-issued', {
    ...other,
    code: '222222',
    expiresAt: inMinutes(15),
  });
  const sentRows = [
    await setup.harness.rowFor(first.id, 'verification-code'),
    await setup.harness.rowFor(second.id, 'password-reset'),
  ];
  const keptRow = await setup.harness.rowFor(kept.id, 'verification-code');
  // One more of the user's e-mails is still waiting for a retry when the account is deleted.
  const [waiting] = await setup.harness.mail
    .db('email_queue')
    .insert({
      dedupe_key: `${randomUUID()}:verification-code`,
      template: 'verification-code',
      user_id: user.userId,
      to: user.email,
      subject: 'Seu código de verificação',
      html: '<p>333333</p>',
      text: '333333',
      attempts: 2,
      last_error: `EENVELOPE 450 ${user.email}: mailbox busy`,
      next_attempt_at: new Date(Date.now() + 3_600_000),
    })
    .returning('*');

  // And one gave up earlier, with the address in the server's answer.
  const [gaveUp] = await setup.harness.mail
    .db('email_queue')
    .insert({
      dedupe_key: `${randomUUID()}:password-reset`,
      template: 'password-reset',
      user_id: user.userId,
      to: user.email,
      subject: 'Redefinição de senha',
      html: '<p>link</p>',
      text: 'link',
      status: 'failed',
      attempts: 8,
      last_error: `EENVELOPE 550 5.1.1 <${user.email}>: Recipient address rejected`,
      processed_at: new Date(Date.now() - 60_000),
    })
    .returning('*');

  const deleted = await setup.harness.publish('user.deleted', { userId: user.userId });
  await waitFor(async () => (await setup.harness.mail.db('inbox').where({ event_id: deleted.id })).length === 1);

  const after = await setup.harness.rows({ user_id: user.userId });
  expect(after).toHaveLength(4);
  for (const row of after) {
    expect(row).toMatchObject({ to: '', subject: '', html: '', text: '', attachments: [] });
    expect(row.redacted_at).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain(user.email);
  }
  for (const before of sentRows) {
    const row = after.find((candidate) => candidate.id === before.id)!;
    expect(row).toMatchObject({
      status: 'sent',
      attempts: before.attempts,
      created_at: before.created_at,
      processed_at: before.processed_at,
      template: before.template,
      dedupe_key: before.dedupe_key,
    });
  }
  expect(after.find((row) => row.id === waiting.id)).toMatchObject({
    status: 'failed',
    attempts: 2,
    last_error: 'cancelled: the account was deleted before delivery',
  });
  expect(after.find((row) => row.id === gaveUp.id)).toMatchObject({
    status: 'failed',
    attempts: 8,
    processed_at: gaveUp.processed_at,
    last_error: 'EENVELOPE 550 5.1.1 <[removed]>: Recipient address rejected',
  });
  expect(await setup.harness.rows({ id: keptRow.id })).toEqual([keptRow]);
  expect(setup.harness.logs.lines).toContainEqual(
    expect.objectContaining({
      msg: 'personal content removed from e-mails',
      userId: user.userId,
      redacted: 4,
      cancelled: 1,
    }),
  );

  // An e-mail event for the deleted account that arrives late stores and sends nothing.
  const late = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '444444',
    expiresAt: inMinutes(15),
  });
  await waitFor(async () => (await setup.harness.mail.db('inbox').where({ event_id: late.id })).length === 1);
  expect(await setup.harness.rows({ dedupe_key: `${late.id}:verification-code` })).toEqual([]);
  expect(setup.harness.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'e-mail not queued: the account was deleted', eventId: late.id }),
  );
  expect(
    receivedBy(user.email)
      .map((message) => message.subject)
      .sort(),
  ).toEqual(['Redefinição de senha', 'Seu código de verificação']);
});

test('user.deleted also empties invitations sent to the account’s address, and no stored row keeps the person', async () => {
  const user = person('Heloísa Vasconcelos Prado');
  const stranger = person('Luciana Ferreira Alves');
  const code = await setup.harness.publish('user.verification-code-issued', {
    ...user,
    code: '555555',
    expiresAt: inMinutes(15),
  });
  const invitation = (recipient: { name: string; email: string }) =>
    setup.harness.publish('courtesy.invited', {
      invitationId: randomUUID(),
      jobId: randomUUID(),
      linkId: randomUUID(),
      code: 'CDPI12345ABC',
      redeemUrl: `${PUBLIC_URL}/cortesia?code=CDPI12345ABC`,
      ticketCount: 1,
      overridePrice: null,
      recipient,
      event: { title: 'Congresso de Assuntos Regulatórios', date: inMinutes(60 * 24 * 30), location: 'São Paulo — SP' },
      attachment: null,
    });
  // The administrator's file spelled the address in capitals: it is the same mailbox.
  const invited = await invitation({ name: user.name, email: user.email.toUpperCase() });
  const other = await invitation({ name: stranger.name, email: stranger.email });
  await setup.harness.rowFor(code.id, 'verification-code');
  const invitedRow = await setup.harness.rowFor(invited.id, 'courtesy-invitation');
  const otherRow = await setup.harness.rowFor(other.id, 'courtesy-invitation');

  const deleted = await setup.harness.publish('user.deleted', { userId: user.userId });
  await waitFor(async () => (await setup.harness.mail.db('inbox').where({ event_id: deleted.id })).length === 1);

  expect(await setup.harness.rows({ id: invitedRow.id })).toEqual([
    {
      ...invitedRow,
      to: '',
      subject: '',
      html: '',
      text: '',
      attachments: [],
      redacted_at: expect.any(Date),
    },
  ]);
  expect(await setup.harness.rows({ id: otherRow.id })).toEqual([otherRow]);
  const stored = JSON.stringify(await setup.harness.mail.db('email_queue')).toLowerCase();
  expect(stored).not.toContain(user.email.toLowerCase());
  expect(stored).not.toContain(user.name.toLowerCase());
  expect(stored).not.toContain('heloísa');
  expect(stored).toContain(stranger.email.toLowerCase());
  expect(setup.harness.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'personal content removed from e-mails', userId: user.userId, redacted: 2 }),
  );
});

test('the queue itself never stores a second e-mail for the same event and template', async () => {
  const eventId = randomUUID();
  const request = {
    template: 'verification-code' as const,
    to: `${randomUUID()}@example.com.br`,
    userId: null,
    data: { name: 'Ana', code: '123123', validMinutes: 15 },
  };
  const outcomes = [];
  for (let i = 0; i < 2; i++) {
    outcomes.push(
      await setup.harness.mail.db.transaction((trx) =>
        queueEmail(trx, request, { dedupeKey: dedupeKeyFor(eventId, 'verification-code') }),
      ),
    );
  }
  expect(outcomes).toEqual([{ outcome: 'queued', id: expect.any(String) }, { outcome: 'duplicate' }]);
  expect(await setup.harness.rows({ dedupe_key: `${eventId}:verification-code` })).toHaveLength(1);
});
