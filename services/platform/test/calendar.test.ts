import { execFileSync } from 'node:child_process';
import ICAL from 'ical.js';
import { brand, WHOLE_EVENT_MS } from '@ticketing/proto';
import { calendarFileName, eventCalendar } from '../src/calendar.ts';

const SITE = 'https://ingressos.example.com.br';
const event = {
  id: '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a11',
  title: 'Simpósio de Farmacovigilância: módulo 2; prática',
  date: '2027-03-13T01:30:00.000Z',
  location: 'Centro de Convenções Frei Caneca, São Paulo – SP',
  sessions: [
    {
      id: '0d4e1f2a-9b8c-4d7e-8f6a-5b4c3d2e1f00',
      // 22:30 in São Paulo, already the next day in UTC.
      startsAt: '2027-03-13T01:30:00.000Z',
      endsAt: '2027-03-13T04:00:00.000Z',
      title: null,
    },
  ],
};

/** The file as a calendar program reads it: its VCALENDAR and its one VEVENT. */
function read(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

test('an event becomes a published VEVENT in São Paulo time that calendar readers parse', () => {
  const text = eventCalendar(event, `${SITE}/`);
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(text).toMatch(/\r\nEND:VCALENDAR\r\n$/);
  expect(text).toContain('\r\nDTSTART;TZID=America/Sao_Paulo:20270312T223000\r\n');

  const { calendar, vevent, event: parsed } = read(text);
  expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
  expect(calendar.getFirstPropertyValue('prodid')).toBe(`-//${brand.name}//Ingressos//PT`);
  expect(parsed.uid).toBe(`${event.id}@ingressos.example.com.br`);
  expect(parsed.summary).toBe(event.title);
  expect(parsed.location).toBe(event.location);
  expect(vevent.getFirstPropertyValue('url')).toBe(`${SITE}/event/${event.id}`);
  expect(parsed.description).toBe(
    `Um evento ${brand.name}.\nInformações e ingressos na página do evento: ${SITE}/event/${event.id}`,
  );

  expect(parsed.startDate.toString()).toBe('2027-03-12T22:30:00');
  expect(parsed.startDate.zone!.tzid).toBe('America/Sao_Paulo');
  expect(parsed.startDate.utcOffset()).toBe(-3 * 3600);
  expect(parsed.startDate.toJSDate().toISOString()).toBe(event.sessions[0]!.startsAt);
  expect(parsed.endDate.toJSDate().toISOString()).toBe(event.sessions[0]!.endsAt);

  const zone = calendar.getFirstSubcomponent('vtimezone')!;
  expect(zone.getFirstPropertyValue('tzid')).toBe('America/Sao_Paulo');
  const parts = zone.getAllSubcomponents().map((part) => [part.name, String(part.getFirstPropertyValue('tzoffsetto'))]);
  expect(parts).toEqual([['standard', '-03:00']]);
});

test('an event of several sessions is an entry per session, each with its times, title and own UID', () => {
  const sessions = [
    {
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      startsAt: '2027-12-06T11:00:00.000Z',
      endsAt: '2027-12-06T21:00:00.000Z',
      title: 'Dia 1',
    },
    {
      id: 'a1b2c3d4-0000-4000-8000-000000000002',
      startsAt: '2027-12-07T11:00:00.000Z',
      endsAt: '2027-12-07T15:00:00.000Z',
      title: null,
    },
  ];
  const calendar = new ICAL.Component(ICAL.parse(eventCalendar({ ...event, sessions }, SITE)));
  const entries = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  expect(
    entries.map((entry) => ({
      uid: entry.uid,
      summary: entry.summary,
      start: entry.startDate.toString(),
      end: entry.endDate.toJSDate().toISOString(),
    })),
  ).toEqual([
    {
      uid: `${sessions[0]!.id}@ingressos.example.com.br`,
      summary: `${event.title} — Dia 1`,
      start: '2027-12-06T08:00:00',
      end: sessions[0]!.endsAt,
    },
    {
      uid: `${sessions[1]!.id}@ingressos.example.com.br`,
      summary: `${event.title} — Sessão 2`,
      start: '2027-12-07T08:00:00',
      end: sessions[1]!.endsAt,
    },
  ]);
});

test('an event known only by its date is one entry of the 4 hours every event had before sessions', () => {
  const { sessions: _sessions, ...dated } = event;
  const { event: parsed } = read(eventCalendar(dated, SITE));
  expect(parsed.uid).toBe(`${event.id}@ingressos.example.com.br`);
  expect(parsed.startDate.toJSDate().toISOString()).toBe(event.date);
  expect(parsed.endDate.toJSDate().getTime() - Date.parse(event.date)).toBe(WHOLE_EVENT_MS);
});

test("the server's own time zone does not change the file", () => {
  // A process of its own per zone: TZ is read when the process starts.
  const module = new URL('../src/calendar.ts', import.meta.url).href;
  const script = `const { eventCalendar } = await import(${JSON.stringify(module)});
process.stdout.write(eventCalendar(${JSON.stringify(event)}, ${JSON.stringify(SITE)}));`;
  const inZone = (TZ: string) =>
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TZ } })
      .toString()
      .replace(/^DTSTAMP:.*\r\n/m, '');
  const inUtc = inZone('UTC');
  expect(inUtc).toContain('\r\nDTSTART;TZID=America/Sao_Paulo:20270312T223000\r\n');
  expect(inZone('Asia/Tokyo')).toBe(inUtc);
});

test('the file is named after the title, without accents or punctuation', () => {
  expect(calendarFileName('Simpósio de Farmacovigilância: módulo 2; prática')).toBe(
    'simposio-de-farmacovigilancia-modulo-2-pratica.ics',
  );
  expect(calendarFileName('  ¿Ação! ')).toBe('acao.ics');
  expect(calendarFileName('—')).toBe('evento.ics');
  expect(calendarFileName('a'.repeat(300))).toBe(`${'a'.repeat(80)}.ics`);
});
