import { randomUUID } from 'node:crypto';
import { publishAsOwner, waitFor } from '@ticketing/testkit';
import type { EventPayload, EventType } from '@ticketing/proto';
import { startSystem } from '../../scripts/lib/system.ts';
import { checkIn, eventWithSessions, readPdf, ticketOf } from '../../services/certificates/test/support.ts';

let system: Awaited<ReturnType<typeof startSystem>>;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system?.stop());

/** Announces what catalog, tickets and the door would, signed as each of them, and waits for certificates to hear it. */
async function announce<T extends EventType>(type: T, payload: EventPayload<T>) {
  const envelope = await publishAsOwner(system.catalog, type, randomUUID(), payload);
  await waitFor(async () => (await system.certificates.db('inbox').where({ event_id: envelope.id })).length === 1);
}

test('after the event, the administrator releases certificates through the gateway; the holder gets the PDF by e-mail and anyone can check it', async () => {
  const admin = await system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const token = admin.body.token as string;
  const event = eventWithSessions({ sessions: 2, hours: 4 });
  await announce('event.changed', event);
  const ticket = ticketOf(event, 'Joana Prates Vieira');
  await announce('ticket.issued', ticket);
  for (const session of event.sessions!) await announce('ticket.checked-in', checkIn(ticket, session.id));

  const settings = await system.call('PUT', `/api/events/${event.eventId}/certificate`, {
    token,
    body: { enabled: true, signerName: 'Dra. Helena Prado', signerRole: 'Coordenadora científica' },
  });
  expect(settings.status).toBe(200);
  const released = await system.call('POST', `/api/events/${event.eventId}/certificates`, { token });
  expect(released).toEqual({ status: 200, body: { issued: 1, skipped: 0 } });
  const [certificate] = (await system.call('GET', `/api/events/${event.eventId}/certificates`, { token })).body;
  expect(certificate).toMatchObject({ holderName: 'Joana Prates Vieira', hours: 8, status: 'válido' });

  const mail = await system.mailTo(ticket.buyer.email, `Seu certificado de participação: ${event.title}`);
  const attachment = mail.attachments.find((file) => file.filename === `certificado-${certificate.code}.pdf`)!;
  expect(attachment).toBeDefined();
  const file = await fetch(`${system.catcher.httpUrl}/api/email/${mail.id}/attachment/${attachment.filename}`);
  const pdf = await readPdf(Buffer.from(await file.arrayBuffer()));
  expect(pdf.text).toContain('Joana Prates Vieira');
  expect(pdf.text).toContain(certificate.code);
  const verifyUrl = pdf.qrTexts[0]!;
  expect(verifyUrl).toMatch(new RegExp(`/certificados/${certificate.code}$`));

  const checked = await system.call('GET', `/api/certificates/${certificate.code}`);
  expect(checked).toMatchObject({ status: 200, body: { holderName: 'Joana Prates Vieira', status: 'válido' } });
  expect(await system.call('GET', '/api/certificates/AAAA-BBBB-CCCC-DDDD')).toEqual({
    status: 404,
    body: { message: 'Certificado não encontrado' },
  });

  // The page the QR code opens, rendered on the server: it reads without JavaScript and stays out of search engines.
  const page = await fetch(`${system.gatewayUrl}${new URL(verifyUrl).pathname}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<meta name="robots" content="noindex">');
  for (const shown of ['Joana Prates Vieira', event.title, '8 horas', 'válido', certificate.code]) {
    expect(html).toContain(shown);
  }
  expect(html).not.toContain(ticket.buyer.email);
  const forged = await fetch(`${system.gatewayUrl}/certificados/AAAA-BBBB-CCCC-DDDD`);
  expect(forged.status).toBe(404);
  expect(await forged.text()).toContain('Certificado não encontrado');
});
