import { decideReading, type DoorEventView, type DoorTicket, type EventSession } from '@ticketing/proto';
import {
  doorSessionOf,
  eventSessions,
  keptChoice,
  sessionAt,
  usedInSession,
  type QueuedAdmission,
} from '../src/door/door-session.ts';

const EVENT_ID = '0b4f5a8e-6a51-4d2a-9a0e-1f2d3c4b5a60';
const day1: EventSession = {
  id: '11111111-1111-4111-8111-111111111111',
  startsAt: '2026-12-06T12:00:00.000Z',
  endsAt: '2026-12-06T21:00:00.000Z',
  title: 'Dia 1',
};
const day2: EventSession = {
  id: '22222222-2222-4222-8222-222222222222',
  startsAt: '2026-12-07T12:00:00.000Z',
  endsAt: '2026-12-07T21:00:00.000Z',
  title: 'Dia 2',
};
const event: DoorEventView = {
  id: EVENT_ID,
  title: 'Congresso',
  date: day1.startsAt,
  location: 'Belo Horizonte',
  listed: true,
  today: true,
  sessions: [day1, day2],
};
const claims = { ticketId: '33333333-3333-4333-8333-333333333333', eventId: EVENT_ID, version: 1 };
const kept: DoorTicket = {
  id: claims.ticketId,
  orderId: '44444444-4444-4444-8444-444444444444',
  version: 1,
  holderName: 'Beatriz Campos Rocha',
  ticketType: null,
  status: 'valid',
  admissions: { [day1.id]: '2026-12-06T12:30:00.000Z' },
};

/** The door's verdict offline, as `decideLocally` reaches it: the kept ticket, used or not in `sessionId`. */
const decide = (sessionId: string, queued: QueuedAdmission[] = [], ticket = kept) =>
  decideReading({
    claims,
    doorEventId: EVENT_ID,
    ticket: { ...ticket, eventId: EVENT_ID, usedAt: usedInSession(ticket, sessionId, queued) },
  }).code;

test('a ticket admitted to the first session is refused in it again, and let in to the second', () => {
  expect(decide(day1.id)).toBe('already_used');
  expect(decide(day2.id)).toBe('valid');
  expect(usedInSession(kept, day1.id, [])).toBe('2026-12-06T12:30:00.000Z');
});

test('a reading queued on the device counts in its own session only, and only when it let the holder in', () => {
  const unused = { ...kept, admissions: {} };
  const queuedIn = (sessionId: string | null, admitted = true) => [
    { sessionId, readAt: '2026-12-07T12:10:00.000Z', admitted },
  ];
  expect(decide(day2.id, queuedIn(day2.id), unused)).toBe('already_used');
  expect(usedInSession(unused, day2.id, queuedIn(day2.id))).toBe('2026-12-07T12:10:00.000Z');
  expect(decide(day1.id, queuedIn(day2.id), unused)).toBe('valid');
  expect(decide(day2.id, queuedIn(day2.id, false), unused)).toBe('valid');
  expect(decide(day2.id, queuedIn(null), unused)).toBe('valid');
  // The server's admission comes first: the queued one is the same holder let in again elsewhere, offline.
  expect(usedInSession(kept, day1.id, queuedIn(day1.id))).toBe('2026-12-06T12:30:00.000Z');
});

test('the door checks in the session chosen while it is the event’s, else the one whose door is open', () => {
  const sessions = eventSessions(event);
  const duringDay2 = new Date('2026-12-07T10:00:00.000Z');
  expect(doorSessionOf(null, sessions, duringDay2)).toBe(day2.id);
  expect(doorSessionOf(day1.id, sessions, duringDay2)).toBe(day1.id);
  expect(doorSessionOf('gone', sessions, duringDay2)).toBe(day2.id);
  expect(doorSessionOf(null, sessions, new Date('2026-12-01T10:00:00.000Z'))).toBe(day1.id);
  expect(doorSessionOf(null, undefined, duringDay2)).toBeUndefined();
});

test('a session chosen on an earlier start of the door stands until it ends, then the open one is taken', () => {
  const sessions = eventSessions(event);
  expect(keptChoice(day1.id, sessions, new Date('2026-12-06T20:00:00.000Z'))).toBe(day1.id);
  expect(keptChoice(day2.id, sessions, new Date('2026-12-06T20:00:00.000Z'))).toBe(day2.id);
  const nextMorning = new Date('2026-12-07T10:00:00.000Z');
  expect(keptChoice(day1.id, sessions, nextMorning)).toBeNull();
  expect(doorSessionOf(keptChoice(day1.id, sessions, nextMorning), sessions, nextMorning)).toBe(day2.id);
  expect(keptChoice('another-event-session', sessions, nextMorning)).toBeNull();
  expect(keptChoice(day1.id, undefined, nextMorning)).toBeNull();
});

test('an event kept before events had sessions has one, with the event’s id, which every reading is for', () => {
  const before = { ...event, sessions: [] };
  expect(eventSessions(before).map((session) => session.id)).toEqual([EVENT_ID]);
  expect(sessionAt([before], EVENT_ID, '2026-12-06T13:00:00.000Z')).toBe(EVENT_ID);
});

test('a reading queued before readings kept their session is placed in the one whose door was open then', () => {
  expect(sessionAt([event], EVENT_ID, '2026-12-06T13:00:00.000Z')).toBe(day1.id);
  // Day 2's door opens 3 h before its start.
  expect(sessionAt([event], EVENT_ID, '2026-12-07T09:30:00.000Z')).toBe(day2.id);
  expect(sessionAt([event], 'another-event', '2026-12-07T09:30:00.000Z')).toBeNull();
});
