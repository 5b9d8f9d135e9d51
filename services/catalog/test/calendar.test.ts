import ICAL from 'ical.js';
import { SITE, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const calendarOf = (id: string) => catalog.request('GET', `/api/events/${id}/calendar.ics`);

test('an event, listed or not, downloads as a calendar file in São Paulo time', async () => {
  const listed = await catalog.createEvent({
    title: 'Workshop de Farmácia Clínica: módulo 2',
    date: '2027-03-12T22:00:00.000Z',
    location: 'Centro de Convenções Frei Caneca, São Paulo – SP',
  });
  const unlisted = await catalog.createEvent({ title: 'Encontro fechado', listed: false });

  const response = await calendarOf(listed.id);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8; method=PUBLISH');
  expect(response.headers.get('content-disposition')).toBe(
    'attachment; filename="workshop-de-farmacia-clinica-modulo-2.ics"',
  );
  const calendar = new ICAL.Component(ICAL.parse(await response.text()));
  expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const entry = new ICAL.Event(vevent);
  expect(entry.uid).toBe(`${listed.id}@ingressos.example.com.br`);
  expect(entry.summary).toBe('Workshop de Farmácia Clínica: módulo 2');
  expect(entry.location).toBe('Centro de Convenções Frei Caneca, São Paulo – SP');
  expect(vevent.getFirstPropertyValue('url')).toBe(`${SITE}/event/${listed.id}`);
  expect(entry.startDate.toString()).toBe('2027-03-12T19:00:00');
  expect(entry.startDate.zone!.tzid).toBe('America/Sao_Paulo');
  expect(entry.startDate.utcOffset()).toBe(-3 * 3600);
  expect(entry.startDate.toJSDate().toISOString()).toBe(listed.date);

  const hidden = await calendarOf(unlisted.id);
  expect(hidden.status).toBe(200);
  expect(hidden.headers.get('content-disposition')).toBe('attachment; filename="encontro-fechado.ics"');
  expect(
    new ICAL.Event(new ICAL.Component(ICAL.parse(await hidden.text())).getFirstSubcomponent('vevent')!).summary,
  ).toBe('Encontro fechado');
});

test('an event of two sessions downloads as two entries, each at its real times in São Paulo', async () => {
  const event = await catalog.createEvent({
    title: 'Congresso Brasileiro de Assuntos Regulatórios',
    date: undefined,
    sessions: [
      { startsAt: '2027-12-06T08:00:00-03:00', endsAt: '2027-12-06T18:00:00-03:00', title: 'Dia 1' },
      { startsAt: '2027-12-07T08:00:00-03:00', endsAt: '2027-12-07T12:30:00-03:00', title: 'Dia 2' },
    ],
  });

  const response = await calendarOf(event.id);
  expect(response.status).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(await response.text()));
  const entries = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  expect(
    entries.map((entry) => ({
      uid: entry.uid,
      summary: entry.summary,
      start: entry.startDate.toString(),
      end: entry.endDate.toString(),
      zone: entry.startDate.zone!.tzid,
      instants: [entry.startDate.toJSDate().toISOString(), entry.endDate.toJSDate().toISOString()],
    })),
  ).toEqual(
    event.sessions.map((session, position) => ({
      uid: `${session.id}@ingressos.example.com.br`,
      summary: `Congresso Brasileiro de Assuntos Regulatórios — Dia ${position + 1}`,
      start: position === 0 ? '2027-12-06T08:00:00' : '2027-12-07T08:00:00',
      end: position === 0 ? '2027-12-06T18:00:00' : '2027-12-07T12:30:00',
      zone: 'America/Sao_Paulo',
      instants: [session.startsAt, session.endsAt],
    })),
  );
});

test('an unknown, deactivated or malformed id is not found, in Portuguese', async () => {
  const cancelled = await catalog.createEvent();
  expect((await catalog.request('DELETE', `/api/events/${cancelled.id}`, { token: catalog.adminToken })).status).toBe(
    200,
  );
  for (const id of ['7f0c2d3e-1111-4222-8333-944455566677', cancelled.id, 'nao-e-um-id']) {
    const response = await calendarOf(id);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Evento não encontrado' });
  }
});
