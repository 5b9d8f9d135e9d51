/**
 * Certificates of attendance: the median time to make one certificate PDF (`certificatePdf`, median of five rounds of
 * 50), and the release of an event's certificates to BENCH_CERTIFICATE_HOLDERS holders (800) through the whole
 * product (the system of the journeys, with its SMTP catcher): from the administrator's 'Emitir certificados' until
 * every holder's e-mail, with its PDF fetched from certificates and attached, has arrived. Aims: ≤ 50 ms a PDF,
 * ≤ 60 s for 800.
 *
 * It fails (exit 1, a line saying why) when fewer certificates are issued, or fewer e-mails with a PDF delivered, than
 * there are holders.
 */
import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@ticketing/proto';
import { certificatePdf } from '@ticketing/certificates';
import { publishAsOwner, waitFor } from '@ticketing/testkit';
import { startSystem } from '../lib/system.ts';

const HOLDERS = Number(process.env.BENCH_CERTIFICATE_HOLDERS ?? 800);
const PDF_AIM_MS = 50;
const RELEASE_AIM_S = 60;
const failures: string[] = [];

async function pdfMilliseconds(): Promise<number> {
  const rounds: number[] = [];
  const document = {
    code: '7KQ2-M9XD-4T1H-0BZC',
    holderName: 'Maria Aparecida dos Santos Oliveira',
    eventTitle: 'Congresso Brasileiro de Farmácia Hospitalar',
    location: 'Centro de Convenções Rebouças, São Paulo – SP',
    dates: '12/03/2027 a 14/03/2027',
    hours: 24,
    sessions: [1, 2, 3].map((day) => ({ label: `Dia ${day} — 1${day + 1}/03`, hours: 8 })),
    body: 'participou do evento {evento}, realizado em {datas}, em {local}, com carga horária de {horas} horas.',
    signerName: 'Dra. Helena Prado',
    signerRole: 'Coordenadora científica',
    signatureImage: null,
    verifyUrl: 'https://ingressos.example.com.br/certificados/7KQ2-M9XD-4T1H-0BZC',
  };
  for (let round = 0; round < 6; round++) {
    const started = performance.now();
    for (let index = 0; index < 50; index++) await certificatePdf(document);
    if (round > 0) rounds.push((performance.now() - started) / 50); // the first round warms up
  }
  return rounds.sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
}

async function releaseSeconds(): Promise<number> {
  const system = await startSystem();
  try {
    const HOUR_MS = 60 * 60 * 1000;
    const startsAt = Date.now() - 30 * HOUR_MS;
    const event: EventPayload<'event.changed'> = {
      eventId: randomUUID(),
      title: 'Congresso de Farmácia Clínica',
      date: new Date(startsAt).toISOString(),
      location: 'São Paulo – SP',
      price: '350.00',
      isActive: true,
      listed: true,
      maxAttendees: HOLDERS,
      sessions: [
        {
          id: randomUUID(),
          startsAt: new Date(startsAt).toISOString(),
          endsAt: new Date(startsAt + 8 * HOUR_MS).toISOString(),
          title: null,
        },
      ],
    };
    const announce = <T extends 'event.changed' | 'ticket.issued' | 'ticket.checked-in'>(
      type: T,
      payload: EventPayload<T>,
    ) => publishAsOwner(system.catalog, type, randomUUID(), payload);
    await announce('event.changed', event);
    const tickets = Array.from({ length: HOLDERS }, (_, index) => ({
      ticketId: randomUUID(),
      orderId: randomUUID(),
      orderNumber: `PED-${index}`,
      userId: randomUUID(),
      eventId: event.eventId,
      qrText: 'v1.bench',
      qrCodeData: 'data:image/png;base64,iVBORw0KGgo=',
      buyer: { name: `Participante ${index + 1}`, email: `participante.${index + 1}@example.com.br` },
      event: { title: event.title, date: event.date, location: event.location },
    }));
    for (const ticket of tickets) {
      await announce('ticket.issued', ticket);
      await announce('ticket.checked-in', {
        ticketId: ticket.ticketId,
        orderId: ticket.orderId,
        eventId: event.eventId,
        sessionId: event.sessions![0]!.id,
        usedAt: new Date(startsAt + HOUR_MS).toISOString(),
        scannedBy: randomUUID(),
      });
    }
    const db = system.certificates.db;
    await waitFor(async () => Number((await db('admissions').count({ n: '*' }))[0]!.n) === HOLDERS, {
      timeoutMs: 300_000,
    });
    const admin = await system.call('POST', '/api/auth/login', {
      body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
    });
    const token = admin.body.token as string;
    await system.call('PUT', `/api/events/${event.eventId}/certificate`, { token, body: { enabled: true } });
    // Only the release is timed: the ticket e-mails of the set-up go out before it starts.
    const ticketSubject = `Seu ingresso: ${event.title}`;
    await waitFor(
      () => system.catcher.messages().filter((message) => message.subject === ticketSubject).length >= HOLDERS,
      { timeoutMs: 600_000, intervalMs: 200 },
    );
    const subject = `Seu certificado de participação: ${event.title}`;
    const delivered = () =>
      system.catcher
        .messages()
        .filter(
          (message) =>
            message.subject === subject && message.attachments.some((file) => file.filename.endsWith('.pdf')),
        );

    const started = performance.now();
    const released = await system.call('POST', `/api/events/${event.eventId}/certificates`, { token });
    if (released.body?.issued !== HOLDERS)
      failures.push(`release: ${JSON.stringify(released.body)} for ${HOLDERS} holders`);
    const answered = (performance.now() - started) / 1000;
    const queue = system.mail!.db('email_queue').where({ template: 'certificate' });
    await waitFor(async () => Number((await queue.clone().count({ n: '*' }))[0]?.n) >= HOLDERS, {
      timeoutMs: 600_000,
      intervalMs: 200,
    }).catch(() => undefined);
    const queued = (performance.now() - started) / 1000;
    await waitFor(() => delivered().length >= HOLDERS, { timeoutMs: 600_000, intervalMs: 200 }).catch(() => undefined);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  released (answer) ${answered.toFixed(1)} s, e-mails queued ${queued.toFixed(1)} s, delivered ${seconds.toFixed(1)} s`,
    );
    const count = new Set(delivered().flatMap((message) => message.to)).size;
    if (count !== HOLDERS) failures.push(`release: ${count} e-mails with a PDF delivered for ${HOLDERS} holders`);
    return seconds;
  } finally {
    await system.stop();
  }
}

const pdfMs = await pdfMilliseconds();
console.log(`Certificate PDF: ${pdfMs.toFixed(1)} ms each (median; aim ≤ ${PDF_AIM_MS} ms)`);
const seconds = await releaseSeconds();
console.log(
  `Certificates released to ${HOLDERS} holders, e-mails with the PDF included: ${seconds.toFixed(1)} s (aim ≤ ${RELEASE_AIM_S} s for 800)`,
);
for (const failure of failures) console.error(`BENCHMARK FAILED — ${failure}`);
if (failures.length > 0) process.exitCode = 1;
