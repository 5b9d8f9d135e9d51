import type { DoorEventView } from '@ticketing/proto';
import { doorEventOf } from '../src/door/door-event.ts';

const event = (id: string, today: boolean): DoorEventView => ({
  id,
  title: `Evento ${id}`,
  date: '2026-11-26T13:00:00.000Z',
  location: 'Belo Horizonte',
  listed: true,
  today,
  sessions: [],
});
const list = [event('hoje', true), event('amanha', false)];

test('a door with no choice of its own has no event while its list loads, never every event; then today’s first', () => {
  for (const isAdmin of [true, false]) {
    expect(doorEventOf(null, undefined, isAdmin)).toEqual({ eventId: '', decided: false });
    expect(doorEventOf(null, list, isAdmin)).toEqual({ eventId: 'hoje', decided: true });
    expect(doorEventOf(null, [], isAdmin)).toEqual({ eventId: '', decided: false });
  }
});

test('the event kept on the device stands while the list loads and while it is listed, else today’s first', () => {
  expect(doorEventOf('amanha', undefined, false)).toEqual({ eventId: 'amanha', decided: true });
  expect(doorEventOf('amanha', list, false)).toEqual({ eventId: 'amanha', decided: true });
  expect(doorEventOf('encerrado', list, false)).toEqual({ eventId: 'hoje', decided: true });
});

test('every event is a choice an admin makes; door staff kept on it get today’s first, or wait for the list', () => {
  expect(doorEventOf('', undefined, true)).toEqual({ eventId: '', decided: true });
  expect(doorEventOf('', list, true)).toEqual({ eventId: '', decided: true });
  expect(doorEventOf('', undefined, false)).toEqual({ eventId: '', decided: false });
  expect(doorEventOf('', list, false)).toEqual({ eventId: 'hoje', decided: true });
});
