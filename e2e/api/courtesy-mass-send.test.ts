import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, startSystem } from '../../scripts/lib/system.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SUBJECT = 'Você recebeu uma cortesia: Workshop de Farmácia Clínica';

let system: Awaited<ReturnType<typeof startSystem>>;
let mail: ChildProcess | undefined;
beforeAll(async () => {
  system = await startSystem({ mail: false });
});
afterAll(async () => {
  await stopMail('SIGTERM');
  await system.stop();
});

/** The mail service in a process of its own, so it can be killed like a crashed pod. */
function startMail() {
  mail = spawn(process.execPath, ['services/mail/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...system.mailEnv, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopMail(signal: NodeJS.Signals) {
  const running = mail;
  mail = undefined;
  if (!running || running.exitCode !== null) return;
  await new Promise((resolve) => running.once('exit', resolve).kill(signal));
}

function upload(adminToken: string, csv: string | Buffer, filename = 'convidados.csv') {
  const form = new FormData();
  form.append('csvFile', new Blob([csv]), filename);
  return fetch(`${system.gatewayUrl}/api/courtesy/mass-send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: form,
  });
}

const invitations = () => system.catcher.messages().filter((message) => message.subject === SUBJECT);

test('1,000 guests: 1,000 links and exactly 1,000 invitations, with the mail service killed and restarted halfway', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 2000 });
  const guests = Array.from({ length: 1000 }, (_, i) => ({
    name: `Convidado ${i}`,
    email: `convidado${i}@parceiro.example.com.br`,
  }));
  const csv =
    '\uFEFFname;email;amount_of_courtesies;event_id\r\n' +
    guests.map((g) => `${g.name};${g.email};1;${eventId}`).join('\r\n');
  startMail();
  const answer = await upload(adminToken, csv);
  expect(answer.status).toBe(202);
  const { jobId } = (await answer.json()) as { jobId: string };

  await waitFor(() => invitations().length >= 250, { timeoutMs: 60_000 });
  await stopMail('SIGKILL');
  const beforeRestart = new Set(invitations().map((message) => message.messageId)).size;
  expect(beforeRestart).toBeLessThan(1000);
  startMail();

  const job = await waitFor(
    async () => {
      const { body } = await system.call('GET', `/api/courtesy/mass-send/${jobId}`, { token: adminToken });
      return body.status === 'done' && body;
    },
    { timeoutMs: 120_000 },
  );
  expect(job).toMatchObject({ total: 1000, sent: 1000, failed: 0 });
  await waitFor(() => new Set(invitations().map((message) => message.messageId)).size === 1000, { timeoutMs: 90_000 });

  // A message the SMTP server took just before the kill may be sent again, always under its own Message-ID.
  const byRecipient = new Map<string, Set<string>>();
  for (const message of invitations()) {
    const ids = byRecipient.get(message.to[0]!) ?? new Set();
    byRecipient.set(message.to[0]!, ids.add(message.messageId!));
  }
  expect(byRecipient.size).toBe(1000);
  expect([...byRecipient.values()].every((ids) => ids.size === 1)).toBe(true);

  const links = await system.courtesy.db('courtesy_links').where({ job_id: jobId });
  expect(links).toHaveLength(1000);
  const ana = links.find((link) => link.recipient_email === 'convidado7@parceiro.example.com.br');
  const mailed = invitations().find((message) => message.to.includes(ana.recipient_email))!;
  expect(mailed.text).toContain(`http://localhost:8080/cortesia?code=${ana.code}`);
  expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({ currentAttendees: 1000 });
}, 240_000);

test('a bad file is answered row by row through the gateway, and nothing is sent', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 50 });
  const rows = [
    `Ana;ana@example.com;1;${eventId}`,
    `Bruno;bruno@example.com;0;${eventId}`,
    `Carla;carla@example.com;101;${eventId}`,
    `Davi;davi@example.com;1;7b0c9a52-3f7e-4c39-9d1e-0a4b6d8f2e11`,
    `Eva;eva@example.com;1;${eventId}`,
    `Fábio;fabio-sem-arroba.example.com;1;${eventId}`,
  ];
  const bad = await upload(adminToken, ['name;email;amount_of_courtesies;event_id', ...rows].join('\n'));
  expect(bad.status).toBe(422);
  expect(await bad.json()).toEqual({
    message: 'O arquivo tem erros; nenhum convite foi enviado.',
    errors: [
      'Linha 3: quantidade de cortesias deve ser um número inteiro entre 1 e 100',
      'Linha 4: quantidade de cortesias deve ser um número inteiro entre 1 e 100',
      'Linha 5: evento não encontrado',
      'Linha 7: e-mail inválido',
    ],
  });
  const header = await upload(adminToken, 'nome,email\nAna,ana@example.com');
  expect(header.status).toBe(400);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const notCsv = await upload(adminToken, png, 'convidados.csv');
  expect(notCsv.status).toBe(415);
  expect(await notCsv.json()).toEqual({ message: 'O arquivo enviado não é um CSV de texto.' });

  expect(await system.courtesy.db('mass_send_jobs').whereNot({ total: 1000 })).toEqual([]);
  expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({ currentAttendees: 0 });
  const invited = system.catcher.messages().flatMap((message) => message.to);
  expect(invited.filter((to) => /^(ana|bruno|carla|davi|eva|fabio)/.test(to))).toEqual([]);
});
