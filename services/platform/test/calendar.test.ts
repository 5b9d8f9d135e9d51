import { execFileSync } from 'node:child_process';
import ICAL from 'ical.js';
import { brand } from '@ticketing/proto';
import { calendarFileName, EVENT_CALENDAR_HOURS, eventCalendar } from '../src/calendar.ts';

const SITE = 'https://ingressos.example.com.br';
const event = {
  id: '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a11',
  title: 'Simpósio de Farmacovigilância: módulo 2; prática',
  // 22:30 in São Paulo, already the next day in UTC.
  date: '2027-03-13T01:30:00.000Z',
  location: 'Centro de Convenções Frei Caneca, São Paulo – SP',
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
  expect(parsed.startDate.toJSDate().toISOString()).toBe(event.date);
  expect(parsed.endDate.toJSDate().getTime() - parsed.startDate.toJSDate().getTime()).toBe(
    EVENT_CALENDAR_HOURS * 3600 * 1000,
  );

  const zone = calendar.getFirstSubcomponent('vtimezone')!;
  expect(zone.getFirstPropertyValue('tzid')).toBe('America/Sao_Paulo');
  const parts = zone.getAllSubcomponents().map((part) => [part.name, String(part.getFirstPropertyValue('tzoffsetto'))]);
  expect(parts).toEqual([['standard', '-03:00']]);
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
