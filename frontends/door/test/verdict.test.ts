import type { DoorTicket, ScanView } from '@ticketing/proto';
import { deviceVerdict, documentNotice, serverVerdict } from '../src/door/verdict.ts';

const EVENT_ID = '0b4f5a8e-6a51-4d2a-9a0e-1f2d3c4b5a60';
const claims = { ticketId: '33333333-3333-4333-8333-333333333333', eventId: EVENT_ID, version: 1 };
const student = { name: 'Estudante', requiresDocument: true };
const kept: DoorTicket & { eventId: string } = {
  id: claims.ticketId,
  eventId: EVENT_ID,
  orderId: '44444444-4444-4444-8444-444444444444',
  version: 1,
  holderName: 'Beatriz Campos Rocha',
  ticketType: student,
  status: 'valid',
  admissions: {},
};
const answer: ScanView = {
  success: true,
  code: 'valid',
  message: 'Ingresso válido',
  userName: kept.holderName,
  ticketType: { id: '55555555-5555-4555-8555-555555555555', ...student },
  eventTitle: 'Congresso',
  sessionId: '11111111-1111-4111-8111-111111111111',
  ticketId: kept.id,
  orderId: kept.orderId,
};

/** The device's verdict on the kept ticket, admitted before in the session or not. */
const offline = (ticket: DoorTicket & { eventId: string }, usedAt: string | null = null) =>
  deviceVerdict({ claims, doorEventId: EVENT_ID, ticket: { ...ticket, usedAt } }, 'Congresso');

test('a holder let in whose type asks for a document: the server’s verdict and the device’s say to check it', () => {
  const online = serverVerdict(answer);
  expect(online.ticketType).toEqual(student);
  expect(documentNotice(online)).toBe('Conferir documento — Estudante');

  const device = offline(kept);
  expect(device).toMatchObject({ admitted: true, holder: kept.holderName, ticketType: student });
  expect(documentNotice(device)).toBe('Conferir documento — Estudante');
});

test('no notice for a refusal, a type without the check, or a ticket from before types; the type is still named', () => {
  const refused = serverVerdict({ ...answer, success: false, code: 'already_used', message: 'Ingresso já utilizado' });
  expect(refused.ticketType).toEqual(student);
  expect(documentNotice(refused)).toBeNull();
  const used = offline(kept, '2026-12-06T12:30:00.000Z');
  expect(used).toMatchObject({ admitted: false, code: 'already_used', ticketType: student });
  expect(documentNotice(used)).toBeNull();

  const professional = { name: 'Profissional', requiresDocument: false };
  expect(documentNotice(offline({ ...kept, ticketType: professional }))).toBeNull();
  expect(offline({ ...kept, ticketType: professional }).ticketType).toEqual(professional);
  expect(documentNotice(serverVerdict({ ...answer, ticketType: null }))).toBeNull();
  expect(offline({ ...kept, ticketType: null })).toMatchObject({ admitted: true, ticketType: null });
});
