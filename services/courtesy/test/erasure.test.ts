import { randomUUID } from 'node:crypto';
import { insertJob } from '../src/data/jobs-repository.ts';
import { json, makeCpf, redemptionForm, startCourtesy, waitFor, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  // The mass-send worker runs only when an upload wakes it, so a job stored directly stays waiting.
  courtesy = await startCourtesy({ MASS_SEND_POLL_MS: '600000' });
});
afterAll(() => courtesy.stop());

async function massSend(rows: string[]): Promise<string> {
  const form = new FormData();
  const csv = ['name;email;amount_of_courtesies;event_id', ...rows].join('\r\n');
  form.append('csvFile', new Blob([csv], { type: 'text/csv' }), 'convidados.csv');
  const response = await fetch(`${courtesy.service.url}/api/courtesy/mass-send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${courtesy.admin.token}` },
    body: form,
  });
  expect(response.status).toBe(202);
  return (await json(response)).jobId;
}

test('user.deleted erases the guest from attendees, invitations and stored events, keeping redemptions and counts', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 20 });
  const guest = await courtesy.user();
  const other = await courtesy.user();
  const email = `heloisa.${randomUUID().slice(0, 8)}@example.com.br`;
  const person = {
    name: 'Heloísa Vasconcelos Prado',
    email,
    emailConfirm: email,
    cpf: makeCpf(),
    phone: '(31) 99876-5432',
    address: 'Rua Professor Estevão Pinto, 987 – Belo Horizonte',
    partnerCompany: 'Laboratório Serra Azul',
    occupation: 'Farmacêutica responsável',
    birthDate: '1985-09-23',
  };
  const erased = { name: 'Titular removido', email: `removido+${guest.id.slice(0, 8)}@anonimo.invalid` };

  // The guest was invited by a mass send (the file spells the address in capitals), and redeemed a free link.
  const jobId = await massSend([
    `${person.name};${email.toUpperCase()};1;${event.id}`,
    `Luciana Alves;luciana@example.com;1;${event.id}`,
  ]);
  await waitFor(
    async () =>
      (await json(await courtesy.call('GET', `/api/courtesy/mass-send/${jobId}`, { token: courtesy.admin.token })))
        .status === 'done',
  );
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 2, overridePrice: null }));
  for (const [who, form] of [
    [guest, redemptionForm(link.code, person)],
    [other, redemptionForm(link.code)],
  ] as const) {
    const response = await courtesy.call('POST', '/api/courtesy/redeem', { token: who.token, body: form });
    expect(response.status).toBe(201);
  }
  // A second mass send naming the guest is still waiting when the account is deleted.
  const waitingJob = randomUUID();
  await courtesy.service.db.transaction((trx) =>
    insertJob(trx, {
      id: waitingJob,
      createdBy: courtesy.admin.id,
      fileHash: randomUUID().replaceAll('-', ''),
      attachmentId: null,
      rows: [
        {
          jobId: waitingJob,
          line: 2,
          name: person.name,
          email,
          ticketCount: 1,
          eventId: event.id,
          linkId: randomUUID(),
        },
      ],
    }),
  );
  const db = courtesy.service.db;
  const redemptionsBefore = await db('courtesy_redemptions').where({ link_id: link.id }).orderBy('created_at');
  const linkBefore = await db('courtesy_links').where({ id: link.id }).first();

  await courtesy.handled(await courtesy.publish('user.deleted', { userId: guest.id }));

  const [mine] = await db('courtesy_redemptions').where({ user_id: guest.id });
  expect(await db('courtesy_attendees').where({ id: mine.attendee_id }).first()).toMatchObject({
    name: erased.name,
    email: erased.email,
    cpf: null,
    phone: null,
    birth_date: null,
    address: null,
    partner_company: null,
    occupation: null,
    event_title: event.title,
  });
  const [theirs] = await db('courtesy_redemptions').where({ user_id: other.id });
  expect(await db('courtesy_attendees').where({ id: theirs.attendee_id }).first()).toMatchObject({
    name: 'Maria Convidada',
    email: 'maria@example.com',
  });
  expect(await db('courtesy_redemptions').where({ link_id: link.id }).orderBy('created_at')).toEqual(redemptionsBefore);
  expect(await db('courtesy_links').where({ id: link.id }).first()).toEqual(linkBefore);
  expect(await db('courtesy_links').where({ job_id: jobId }).orderBy('recipient_name')).toEqual([
    expect.objectContaining({ recipient_name: 'Luciana Alves', recipient_email: 'luciana@example.com' }),
    expect.objectContaining({ ...{ recipient_name: erased.name, recipient_email: erased.email }, used_count: 0 }),
  ]);
  expect(await db('mass_send_rows').where({ job_id: jobId }).orderBy('line')).toEqual([
    expect.objectContaining({ name: erased.name, email: erased.email, state: 'sent' }),
    expect.objectContaining({ name: 'Luciana Alves', email: 'luciana@example.com', state: 'sent' }),
  ]);
  // The invitation still waiting is not sent to anyone: it fails, counted in its job.
  expect(await db('mass_send_rows').where({ job_id: waitingJob })).toEqual([
    expect.objectContaining({
      name: erased.name,
      email: erased.email,
      state: 'failed',
      error: 'Convite não enviado: a conta do convidado foi excluída',
    }),
  ]);
  expect(await db('mass_send_jobs').where({ id: waitingJob }).first()).toMatchObject({ status: 'done', failed: 1 });

  const invited = await courtesy.published('courtesy.invited');
  expect(invited.filter((payload) => payload.jobId === jobId).map((payload) => payload.recipient)).toEqual(
    expect.arrayContaining([erased, { name: 'Luciana Alves', email: 'luciana@example.com' }]),
  );
  const redeemed = await courtesy.published('courtesy.redeemed');
  expect(redeemed.find((payload) => payload.userId === guest.id)!.attendee).toEqual({ ...erased, cpf: '' });
  expect(redeemed.find((payload) => payload.userId === other.id)!.attendee.name).toBe('Maria Convidada');

  const stored = JSON.stringify([
    await db('courtesy_attendees'),
    await db('courtesy_links'),
    await db('mass_send_rows'),
    await db('outbox'),
  ]).toLowerCase();
  for (const value of [person.name, email, person.cpf, person.cpf.replace(/\D/g, ''), person.phone, person.address])
    expect(stored).not.toContain(value.toLowerCase());
});
