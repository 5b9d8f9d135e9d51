import { randomUUID } from 'node:crypto';
import { serviceAuthorization } from '@ticketing/testkit';
import { insertJob } from '../src/data/jobs-repository.ts';
import { json, startCourtesy, waitFor, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy({ MASS_SEND_CONCURRENCY: '2' });
});
afterAll(() => courtesy.stop());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface Files {
  csv?: string | Buffer;
  csvName?: string;
  attachment?: { name: string; content: Buffer; type?: string };
}

function upload(
  { csv, csvName = 'convidados.csv', attachment }: Files,
  { token = courtesy.admin.token, query = '' } = {},
) {
  const form = new FormData();
  if (csv !== undefined) form.append('csvFile', new Blob([csv], { type: 'text/csv' }), csvName);
  if (attachment) {
    form.append(
      'attachment',
      new Blob([attachment.content], { type: attachment.type ?? 'application/pdf' }),
      attachment.name,
    );
  }
  return fetch(`${courtesy.service.url}/api/courtesy/mass-send${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

const progress = async (jobId: string) =>
  json(await courtesy.call('GET', `/api/courtesy/mass-send/${jobId}`, { token: courtesy.admin.token }));

const csvOf = (rows: string[], separator = ';', header = 'name;email;amount_of_courtesies;event_id') =>
  [header.replaceAll(';', separator), ...rows].join('\r\n');

test('a valid file becomes one free link and one invitation per guest, with the attachment', async () => {
  const [first, second] = [await courtesy.createEvent({ maxAttendees: 10 }), await courtesy.createEvent()];
  const csv =
    '\uFEFF' +
    csvOf([
      `Ana Souza;ana@example.com;2;${first.id}`,
      `João Lima;JOAO@example.com;1;${second.id}`,
      `"Lúcia; Dra.";lucia@example.com;3;${first.id}`,
    ]);
  const response = await upload({ csv, attachment: { name: 'programa.pdf', content: PDF } });
  expect(response.status).toBe(202);
  const answer = await json(response);
  expect(answer).toMatchObject({
    message: 'Os e-mails de cortesia estão sendo processados e serão enviados em breve.',
    jobId: expect.any(String),
    job: { total: 3, sent: 0, failed: 0, status: 'queued' },
  });

  const done = await waitFor(async () => {
    const job = await progress(answer.jobId);
    return job.status === 'done' && job;
  });
  expect(done).toMatchObject({ total: 3, sent: 3, failed: 0, failures: [], finishedAt: expect.any(String) });

  const links = await courtesy.service.db('courtesy_links').where({ job_id: answer.jobId }).orderBy('recipient_email');
  expect(
    links.map((link) => [
      link.recipient_name,
      link.recipient_email,
      link.ticket_count,
      link.override_price,
      link.ticket_type_id,
    ]),
  ).toEqual([
    // Each guest's link is of its event's first type.
    ['Ana Souza', 'ana@example.com', 2, null, first.ticketTypes[0]!.id],
    ['João Lima', 'joao@example.com', 1, null, second.ticketTypes[0]!.id],
    ['Lúcia; Dra.', 'lucia@example.com', 3, null, first.ticketTypes[0]!.id],
  ]);
  expect(await courtesy.attendees(first.id)).toBe(5);

  const invited = (await courtesy.published('courtesy.invited')).filter((payload) => payload.jobId === answer.jobId);
  expect(invited).toHaveLength(3);
  const ana = invited.find((payload) => payload.recipient.email === 'ana@example.com')!;
  const anaLink = links.find((link) => link.recipient_email === 'ana@example.com');
  expect(ana).toMatchObject({
    linkId: anaLink.id,
    code: anaLink.code,
    redeemUrl: `https://ingressos.example/cortesia?code=${anaLink.code}`,
    ticketCount: 2,
    overridePrice: null,
    recipient: { name: 'Ana Souza', email: 'ana@example.com' },
    event: { title: first.title, date: first.date, location: first.location },
    attachment: { id: expect.any(String), filename: 'programa.pdf', contentType: 'application/pdf' },
  });
  const file = await courtesy.call('GET', `/internal/attachments/${ana.attachment.id}`);
  expect(file.headers.get('content-type')).toBe('application/pdf');
  expect(Buffer.from(await file.arrayBuffer())).toEqual(PDF);
});

test('a comma-separated file without a BOM and without an attachment is read as well', async () => {
  const event = await courtesy.createEvent();
  const response = await upload({ csv: csvOf([`Bia Reis,bia@example.com,1,${event.id}`], ',') + '\n\n' });
  expect(response.status).toBe(202);
  const { jobId } = await json(response);
  await waitFor(async () => (await progress(jobId)).sent === 1);
  const [invitation] = (await courtesy.published('courtesy.invited')).filter((payload) => payload.jobId === jobId);
  expect(invitation).toMatchObject({ recipient: { email: 'bia@example.com' }, attachment: null });
});

test('a file with bad rows is answered row by row, and nothing is sent', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 5 });
  const rows = [
    `Ana;ana@example.com;1;${event.id}`,
    `Bruno;bruno@example.com;0;${event.id}`,
    `Carla;carla@example.com;101;${event.id}`,
    `Davi;davi@example.com;1;${randomUUID()}`,
    `Eva;eva@example.com;1;nao-e-um-id`,
    `Fábio;fabio.example.com;1;${event.id}`,
    `Gil;gil@example.com;2;${event.id}`,
    `Hugo;hugo@example.com;3;${event.id}`,
    `Iris;iris@example.com`,
  ];
  const jobsBefore = (await courtesy.service.db('mass_send_jobs')).length;
  const response = await upload({ csv: csvOf(rows) });
  expect(response.status).toBe(422);
  expect(await json(response)).toEqual({
    message: 'O arquivo tem erros; nenhum convite foi enviado.',
    errors: [
      'Linha 3: quantidade de cortesias deve ser um número inteiro entre 1 e 100',
      'Linha 4: quantidade de cortesias deve ser um número inteiro entre 1 e 100',
      'Linha 5: evento não encontrado',
      'Linha 6: event_id inválido',
      'Linha 7: e-mail inválido',
      'Linha 9: o evento não tem vagas suficientes para todas as cortesias do arquivo',
      'Linha 10: esperadas 4 colunas, encontradas 2',
    ],
  });
  expect(await courtesy.service.db('mass_send_jobs')).toHaveLength(jobsBefore);
  expect(await courtesy.service.db('mass_send_rows').where({ email: 'ana@example.com', event_id: event.id })).toEqual(
    [],
  );
  expect(await courtesy.attendees(event.id)).toBe(0);
});

test.each([
  [
    'a wrong header',
    { csv: 'nome;email;quantidade;evento\nAna;ana@example.com;1;x' },
    400,
    'Cabeçalho inválido: a primeira linha deve ser name, email, amount_of_courtesies, event_id',
  ],
  [
    'a header only',
    { csv: 'name,email,amount_of_courtesies,event_id\n' },
    400,
    'O arquivo CSV não tem nenhuma linha de convidado.',
  ],
  ['a .csv that is really a PNG', { csv: PNG }, 415, 'O arquivo enviado não é um CSV de texto.'],
  [
    'a file that is not UTF-8',
    { csv: Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0xff, 0xfe, 0x0a]) },
    415,
    'O arquivo enviado não é um CSV de texto.',
  ],
  ['no CSV at all', {}, 400, 'Por favor, selecione um arquivo CSV.'],
  [
    'an attachment that is not PDF, PNG or JPEG',
    { csv: 'x', attachment: { name: 'a.txt', content: Buffer.from('texto') } },
    415,
    'O anexo deve ser um PDF, PNG ou JPEG.',
  ],
  [
    'a CSV over 2 MB',
    { csv: 'name,email,amount_of_courtesies,event_id\n' + 'a'.repeat(2 * 1024 * 1024) },
    413,
    'O arquivo CSV deve ter no máximo 2 MB.',
  ],
  [
    'an attachment over 10 MB',
    { csv: 'x', attachment: { name: 'big.pdf', content: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]) } },
    413,
    'O anexo deve ter no máximo 10 MB.',
  ],
] as [string, Files, number, string][])('%s is refused', async (_, files, status, message) => {
  const response = await upload(files);
  expect(response.status).toBe(status);
  expect(await json(response)).toEqual({ message });
});

test('more than 5,000 guests is refused', async () => {
  const event = await courtesy.createEvent();
  const rows = Array.from({ length: 5001 }, (_, i) => `Pessoa ${i};p${i}@example.com;1;${event.id}`);
  const response = await upload({ csv: csvOf(rows) });
  expect(response.status).toBe(413);
  expect(await json(response)).toEqual({ message: 'O arquivo CSV deve ter no máximo 5.000 linhas.' });
});

test('only courtesy managers send and follow invitations', async () => {
  const user = await courtesy.user();
  expect((await upload({ csv: 'x' }, { token: user.token })).status).toBe(403);
  const otherAdmin = await courtesy.issuer.sign({ roles: ['admin'] });
  expect((await upload({ csv: 'x' }, { token: otherAdmin })).status).toBe(403);
  expect((await courtesy.call('GET', `/api/courtesy/mass-send/${randomUUID()}`, { token: user.token })).status).toBe(
    403,
  );
  const missing = await courtesy.call('GET', `/api/courtesy/mass-send/${randomUUID()}`, {
    token: courtesy.admin.token,
  });
  expect(missing.status).toBe(404);
  expect(await json(missing)).toEqual({ message: 'Envio não encontrado' });
});

test('the same file again within a day needs a confirmation', async () => {
  const event = await courtesy.createEvent();
  const csv = csvOf([`Caio;caio@example.com;1;${event.id}`]);
  expect((await upload({ csv })).status).toBe(202);
  const again = await upload({ csv });
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({
    message:
      'Este mesmo arquivo já foi enviado nas últimas 24 horas. Envie novamente com confirmação para convidar todos outra vez.',
  });
  expect((await upload({ csv }, { query: '?confirm=1' })).status).toBe(202);
  await waitFor(
    async () =>
      (await courtesy.service.db('courtesy_links').where({ recipient_email: 'caio@example.com' })).length === 2,
  );
});

test('a guest whose event lost its spots after the file was checked is reported as failed; the others are invited', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 3 });
  const jobId = randomUUID();
  // The job as the upload stored it; then someone else takes two of the three spots before the worker gets to it.
  const taken = await fetch(`${courtesy.catalog.url}/internal/events/${event.id}/holds/other`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: await serviceAuthorization('courtesy', 'catalog') },
    body: JSON.stringify({ quantity: 2 }),
  });
  expect(taken.status).toBe(200);
  await courtesy.service.db.transaction((trx) =>
    insertJob(trx, {
      id: jobId,
      createdBy: courtesy.admin.id,
      fileHash: randomUUID().replaceAll('-', ''),
      attachmentId: null,
      rows: [
        {
          jobId,
          line: 2,
          name: 'Ana',
          email: 'ana@example.com',
          ticketCount: 2,
          eventId: event.id,
          linkId: randomUUID(),
        },
        {
          jobId,
          line: 3,
          name: 'Beto',
          email: 'beto@example.com',
          ticketCount: 1,
          eventId: event.id,
          linkId: randomUUID(),
        },
      ],
    }),
  );
  const done = await waitFor(async () => {
    const view = await progress(jobId);
    return view.status === 'done' && view;
  });
  expect(done).toMatchObject({
    total: 2,
    sent: 1,
    failed: 1,
    failures: [
      {
        line: 2,
        email: 'ana@example.com',
        error: 'O evento não tem vagas suficientes para esta quantidade de cortesias.',
      },
    ],
  });
  expect(await courtesy.attendees(event.id)).toBe(3);
});

test('a job interrupted by a restart goes on where it stopped: every guest invited exactly once', async () => {
  const event = await courtesy.createEvent({ maxAttendees: 1000 });
  const rows = Array.from({ length: 300 }, (_, i) => `Pessoa ${i};pessoa${i}@example.com;1;${event.id}`);
  const { jobId } = await json(await upload({ csv: csvOf(rows) }));
  await waitFor(async () => (await progress(jobId)).sent >= 20);
  await courtesy.restart();
  expect((await progress(jobId)).sent).toBeLessThan(300);
  const done = await waitFor(
    async () => {
      const view = await progress(jobId);
      return view.status === 'done' && view;
    },
    { timeoutMs: 60_000 },
  );
  expect(done).toMatchObject({ total: 300, sent: 300, failed: 0 });
  const invited = (await courtesy.published('courtesy.invited')).filter((payload) => payload.jobId === jobId);
  expect(invited).toHaveLength(300);
  expect(new Set(invited.map((payload) => payload.recipient.email)).size).toBe(300);
  expect(await courtesy.service.db('courtesy_links').where({ job_id: jobId })).toHaveLength(300);
  expect(await courtesy.attendees(event.id)).toBe(300);
});
