import { serviceAuthorization } from '@ticketing/testkit';
import type { AdminCertificateView, CertificateView, IssueCertificatesAnswer } from '@ticketing/proto';
import {
  checkIn,
  eventWithSessions,
  readPdf,
  refundOf,
  signaturePng,
  SITE,
  startCertificates,
  ticketOf,
  type Harness,
} from './support.ts';

let harness: Harness;

/** A PNG's signature and nothing a reader can draw. */
const CUT_SHORT_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

beforeAll(async () => {
  harness = await startCertificates({ UNKNOWN_CODE_LOOKUPS: '3' });
});

afterAll(() => harness.stop());

const json = async <T>(response: Response, status = 200): Promise<T> => {
  const body = (await response.clone().text()) || 'null';
  expect({ status: response.status, body }).toMatchObject({ status });
  return JSON.parse(body) as T;
};

/** An event that took place, with certificates on, and three holders: Ana and Carla at both days, Bruno at one. */
async function heldEvent() {
  const event = eventWithSessions({ sessions: 2, hours: 4 });
  await harness.emit('event.changed', event);
  const [ana, bruno, carla] = ['Ana Beatriz Souza', 'Bruno Lima', 'Carla Mendes'].map((name) => ticketOf(event, name));
  for (const ticket of [ana!, bruno!, carla!]) await harness.emit('ticket.issued', ticket);
  const [day1, day2] = event.sessions!;
  for (const [ticket, session] of [
    [ana!, day1!],
    [ana!, day2!],
    [bruno!, day1!],
    [carla!, day1!],
    [carla!, day2!],
  ] as const) {
    await harness.emit('ticket.checked-in', checkIn(ticket, session.id));
  }
  const settings = await harness.api(`/api/events/${event.eventId}/certificate`, {
    method: 'PUT',
    token: harness.adminToken,
    body: {
      enabled: true,
      signerName: 'Dra. Helena Prado',
      signerRole: 'Coordenadora científica',
      signatureImage: signaturePng(),
    },
  });
  expect(await json(settings)).toMatchObject({ enabled: true, minimumAttendance: 0.75 });
  return { event, ana: ana!, bruno: bruno!, carla: carla! };
}

const issue = (eventId: string) =>
  harness.api(`/api/events/${eventId}/certificates`, { method: 'POST', token: harness.adminToken });

test('holders admitted to enough hours get one certificate each, with their hours, a PDF and an e-mail', async () => {
  const { event, ana, bruno, carla } = await heldEvent();

  // Two releases at once: each holder gets exactly one certificate.
  const answers = await Promise.all([issue(event.eventId), issue(event.eventId)]);
  const counts = await Promise.all(answers.map((answer) => json<IssueCertificatesAnswer>(answer)));
  expect(counts.reduce((sum, count) => sum + count.issued, 0)).toBe(2);
  expect(await json(await issue(event.eventId))).toEqual({ issued: 0, skipped: 1 });

  const list = await json<AdminCertificateView[]>(
    await harness.api(`/api/events/${event.eventId}/certificates`, { token: harness.adminToken }),
  );
  expect(list.map(({ holderName, hours, status }) => ({ holderName, hours, status }))).toEqual([
    { holderName: 'Ana Beatriz Souza', hours: 8, status: 'válido' },
    { holderName: 'Carla Mendes', hours: 8, status: 'válido' },
  ]);
  expect(list.some((certificate) => certificate.ticketId === bruno.ticketId)).toBe(false);
  const anas = list.find((certificate) => certificate.ticketId === ana.ticketId)!;
  expect(anas.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);

  const emails = (await harness.issuedEvents()).filter((issued) => issued.eventId === event.eventId);
  expect(emails.map((issued) => issued.holder.email).sort()).toEqual([ana.buyer.email, carla.buyer.email].sort());
  expect(emails.find((issued) => issued.code === anas.code)).toMatchObject({
    hours: 8,
    verifyUrl: `${SITE}/certificados/${anas.code}`,
    replaces: null,
  });

  // The holder's own list and PDF; another account sees neither.
  const anaToken = await harness.tokenOf(ana.userId);
  const mine = await json<CertificateView[]>(await harness.api('/api/certificates', { token: anaToken }));
  expect(mine.map((certificate) => certificate.code)).toEqual([anas.code]);
  const pdfAnswer = await harness.api(`/api/certificates/${anas.code}/pdf`, { token: anaToken });
  expect(pdfAnswer.status).toBe(200);
  expect(pdfAnswer.headers.get('content-type')).toBe('application/pdf');
  const pdf = await readPdf(Buffer.from(await pdfAnswer.arrayBuffer()));
  expect(pdf.text).toContain('CERTIFICADO DE PARTICIPAÇÃO');
  expect(pdf.text).toContain('Ana Beatriz Souza');
  expect(pdf.text).toContain('Congresso de Farmácia Clínica');
  expect(pdf.text).toContain('carga horária de 8 horas');
  expect(pdf.text).toContain('Dia 1');
  expect(pdf.text).toContain('Dra. Helena Prado');
  expect(pdf.text).toContain(anas.code);
  expect(pdf.qrTexts).toEqual([`${SITE}/certificados/${anas.code}`]);
  const strangerToken = await harness.tokenOf(carla.userId);
  expect((await harness.api(`/api/certificates/${anas.code}/pdf`, { token: strangerToken })).status).toBe(404);
  expect((await harness.api(`/api/certificates/${anas.code}/pdf`)).status).toBe(401);

  // Mail fetches the same PDF from the internal route.
  const internal = await harness.api(`/internal/certificates/${anas.id}/pdf`, {
    headers: { authorization: await serviceAuthorization('mail', 'certificates') },
  });
  expect(internal.status).toBe(200);
  expect((await readPdf(Buffer.from(await internal.arrayBuffer()))).text).toContain(anas.code);

  // The public check: no login, no e-mail.
  const checked = await harness.api(`/api/certificates/${anas.code.toLowerCase()}`);
  const view = await json<Record<string, unknown>>(checked);
  expect(view).toMatchObject({
    holderName: 'Ana Beatriz Souza',
    eventTitle: 'Congresso de Farmácia Clínica',
    hours: 8,
    status: 'válido',
  });
  expect(JSON.stringify(view)).not.toContain(ana.buyer.email);
  expect(checked.headers.get('x-robots-tag')).toBe('noindex');
});

test('a refund revokes, a name correction reissues under a new code, an erased account is revoked and nameless', async () => {
  const { event, ana, carla } = await heldEvent();
  await json(await issue(event.eventId));
  const codeOf = async (ticketId: string) =>
    (
      await json<AdminCertificateView[]>(
        await harness.api(`/api/events/${event.eventId}/certificates`, { token: harness.adminToken }),
      )
    ).find((certificate) => certificate.ticketId === ticketId && certificate.status === 'válido')?.code;
  const carlas = (await codeOf(carla.ticketId))!;
  const anas = (await codeOf(ana.ticketId))!;

  await harness.emit('order.refunded', refundOf(carla, 'chargeback'));
  expect(await json(await harness.api(`/api/certificates/${carlas}`))).toMatchObject({ status: 'revogado' });

  const corrected = await json<AdminCertificateView>(
    await harness.api(`/api/events/${event.eventId}/certificates/${anas}`, {
      method: 'PUT',
      token: harness.adminToken,
      body: { holderName: 'Ana Beatriz de Souza' },
    }),
  );
  expect(corrected.code).not.toBe(anas);
  expect(corrected).toMatchObject({ holderName: 'Ana Beatriz de Souza', status: 'válido', hours: 8 });
  expect(await json(await harness.api(`/api/certificates/${anas}`))).toMatchObject({ status: 'substituído' });
  expect((await harness.issuedEvents()).find((issued) => issued.code === corrected.code)).toMatchObject({
    replaces: anas,
    holder: { name: 'Ana Beatriz de Souza', email: ana.buyer.email },
  });
  const again = await harness.api(`/api/events/${event.eventId}/certificates/${anas}`, {
    method: 'PUT',
    token: harness.adminToken,
    body: { holderName: 'Outro Nome' },
  });
  expect(again.status).toBe(409);

  // Nothing is issued again for the refunded or the corrected holder.
  expect(await json(await issue(event.eventId))).toEqual({ issued: 0, skipped: 1 });

  await harness.emit('user.deleted', { userId: ana.userId });
  for (const code of [anas, corrected.code]) {
    const view = await json<Record<string, unknown>>(await harness.api(`/api/certificates/${code}`));
    expect(view.holderName).toBe('Titular removido');
    expect(JSON.stringify(view)).not.toContain('Ana');
  }
  expect(await json(await harness.api(`/api/certificates/${corrected.code}`))).toMatchObject({ status: 'revogado' });
});

test('a ticket whose refund was heard before the ticket itself is never certified', async () => {
  const event = eventWithSessions({ sessions: 1, hours: 4 });
  await harness.emit('event.changed', event);
  const ticket = ticketOf(event, 'Davi Moreira');
  await harness.emit('order.refunded', refundOf(ticket));
  await harness.emit('ticket.issued', ticket);
  await harness.emit('ticket.checked-in', checkIn(ticket, event.sessions![0]!.id));
  await harness.api(`/api/events/${event.eventId}/certificate`, {
    method: 'PUT',
    token: harness.adminToken,
    body: { enabled: true },
  });
  expect(await json(await issue(event.eventId))).toEqual({ issued: 0, skipped: 0 });
});

test('before the last session ends nothing is issued: 409 with why', async () => {
  const event = eventWithSessions({ sessions: 2, hours: 4, startedHoursAgo: 10 });
  await harness.emit('event.changed', event);
  await harness.api(`/api/events/${event.eventId}/certificate`, {
    method: 'PUT',
    token: harness.adminToken,
    body: { enabled: true },
  });
  const refused = await issue(event.eventId);
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({
    message: 'Os certificados só podem ser emitidos depois do fim da última sessão do evento.',
  });
});

test('settings: admins only, defaults from the sessions, bad input refused in pt-BR', async () => {
  const event = eventWithSessions({ sessions: 2, hours: 3 });
  await harness.emit('event.changed', event);
  const path = `/api/events/${event.eventId}/certificate`;
  expect((await harness.api(path)).status).toBe(401);
  expect((await harness.api(path, { token: await harness.tokenOf(event.eventId) })).status).toBe(403);
  const defaults = await json<{ sessions: { hours: number }[]; text: string; enabled: boolean }>(
    await harness.api(path, { token: harness.adminToken }),
  );
  expect(defaults.enabled).toBe(false);
  expect(defaults.sessions.map((session) => session.hours)).toEqual([3, 3]);
  expect(defaults.text).toContain('{evento}');
  for (const [body, message] of [
    [
      { enabled: true, minimumAttendance: 1.5 },
      'A frequência mínima deve ser um número entre 0 e 1 (por exemplo, 0,75)',
    ],
    [{ enabled: true, hoursBySession: { [event.eventId]: 2 } }, 'Há horas para uma sessão que não é deste evento'],
    [
      { enabled: true, signatureImage: 'data:image/png;base64,PHN2Zz4=' },
      'A assinatura deve ser uma imagem PNG de no máximo 200 KB',
    ],
    [
      { enabled: true, signatureImage: `data:image/png;base64,${CUT_SHORT_PNG.toString('base64')}` },
      'A assinatura deve ser uma imagem PNG de no máximo 200 KB',
    ],
  ] as const) {
    const refused = await harness.api(path, { method: 'PUT', token: harness.adminToken, body });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message });
  }
  const set = await json<{ sessions: { hours: number }[] }>(
    await harness.api(path, {
      method: 'PUT',
      token: harness.adminToken,
      body: { enabled: true, hoursBySession: { [event.sessions![0]!.id]: 2.5 } },
    }),
  );
  expect(set.sessions.map((session) => session.hours)).toEqual([2.5, 3]);
  const unknown = await harness.api(`/api/events/${crypto.randomUUID()}/certificate`, { token: harness.adminToken });
  expect(unknown.status).toBe(404);
});

test('forged codes are 404; an address that keeps guessing is stopped, while real codes still answer', async () => {
  const { event } = await heldEvent();
  await json(await issue(event.eventId));
  const [real] = await json<AdminCertificateView[]>(
    await harness.api(`/api/events/${event.eventId}/certificates`, { token: harness.adminToken }),
  );
  const guesses = ['AAAA-BBBB-CCCC-DDDD', 'not-a-code', '0000-0000-0000-0000'];
  for (const guess of guesses) {
    const answer = await harness.api(`/api/certificates/${guess}`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: 'Certificado não encontrado' });
  }
  const stopped = await harness.api('/api/certificates/ZZZZ-ZZZZ-ZZZZ-ZZZZ');
  expect(stopped.status).toBe(429);
  expect(stopped.headers.get('retry-after')).toMatch(/^\d+$/);
  const readers = await Promise.all(Array.from({ length: 20 }, () => harness.api(`/api/certificates/${real!.code}`)));
  expect(readers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
});
