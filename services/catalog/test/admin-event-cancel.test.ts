import { randomUUID } from 'node:crypto';
import type { AdminEventPage, AdminEventView, CancelEventAnswer, EventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const REASON = 'O palestrante principal não poderá comparecer.';
const CONFIRMATION = 'Evento cancelado. Os pedidos pagos serão reembolsados e os participantes avisados por e-mail';

const cancel = (id: string, body: unknown = { reason: REASON }, token = catalog.adminToken) =>
  catalog.request('POST', `/api/admin/events/${id}/cancel`, { token, body });
const admin = (method: string, path: string, body?: unknown) =>
  catalog.request(method, `/api/admin/events${path}`, { token: catalog.adminToken, body });
const hold = (eventId: string, holdId: string, caller?: string) =>
  catalog.request('PUT', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`, {
    body: { quantity: 1 },
    ...(caller ? { caller } : {}),
  });

/** The `event.cancelled` envelopes the outbox holds for an event. */
async function cancellations(eventId: string) {
  const rows = await catalog.service.db('outbox').where({ key: eventId, topic: 'event.cancelled' }).orderBy('seq');
  return rows.map((row: { envelope: { type: string; payload: Record<string, unknown> } }) => row.envelope);
}

test('an admin cancels an upcoming event: stored with its reason, answered 202 and announced once', async () => {
  const event = await catalog.createEvent({ title: 'Simpósio de Farmacovigilância', maxAttendees: 30 });
  expect((await hold(event.id, `order:${randomUUID()}`)).status).toBe(200);

  const response = await cancel(event.id, { reason: `  ${REASON}  ` });
  expect(response.status).toBe(202);
  const answer = (await response.json()) as CancelEventAnswer;
  expect(answer).toEqual({
    message: CONFIRMATION,
    event: expect.objectContaining({
      id: event.id,
      status: 'cancelado',
      cancelledAt: expect.any(String),
      cancelReason: REASON,
      currentAttendees: 1,
    }),
  });

  const row = await catalog.service.db('events').where({ id: event.id }).first();
  expect(row).toMatchObject({ cancel_reason: REASON, is_active: true, current_attendees: 1 });
  expect(row.cancelled_at.toISOString()).toBe(answer.event.cancelledAt);
  expect(await cancellations(event.id)).toEqual([
    expect.objectContaining({
      type: 'event.cancelled',
      payload: {
        eventId: event.id,
        reason: REASON,
        cancelledAt: answer.event.cancelledAt,
        event: { title: 'Simpósio de Farmacovigilância', date: event.date, location: event.location },
      },
    }),
  ]);
  expect(catalog.logs.lines).toContainEqual(expect.objectContaining({ msg: 'event cancelled', eventId: event.id }));

  const read = (await (await admin('GET', `/${event.id}`)).json()) as AdminEventView;
  expect(read).toEqual(answer.event);
  const filtered = (await (await admin('GET', `?status=cancelado&q=farmacovigilancia`)).json()) as AdminEventPage;
  expect(filtered.events.map((found) => found.id)).toContain(event.id);
  expect(filtered.events.every((found) => found.status === 'cancelado')).toBe(true);
});

test('ten cancellations at once: one wins, the others hear it was already cancelled, one event.cancelled', async () => {
  const event = await catalog.createEvent();
  const responses = await Promise.all(Array.from({ length: 10 }, () => cancel(event.id)));
  const answers = await Promise.all(responses.map(async (response) => [response.status, await response.json()]));

  expect(answers.filter(([status]) => status === 202)).toHaveLength(1);
  expect(answers.filter(([status]) => status !== 202)).toEqual(
    Array.from({ length: 9 }, () => [409, { message: 'Este evento já foi cancelado' }]),
  );
  expect(await cancellations(event.id)).toHaveLength(1);
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('refusals: an invalid reason, an unknown event, one already over, one already cancelled', async () => {
  const event = await catalog.createEvent();
  for (const [body, message] of [
    [{}, 'Informe o motivo do cancelamento.'],
    [{ reason: 42 }, 'Informe o motivo do cancelamento.'],
    [{ reason: null }, 'Informe o motivo do cancelamento.'],
    [{ reason: '  ab  ' }, 'O motivo do cancelamento deve ter entre 3 e 500 caracteres.'],
    [{ reason: 'x'.repeat(501) }, 'O motivo do cancelamento deve ter entre 3 e 500 caracteres.'],
  ] as const) {
    const response = await cancel(event.id, body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  expect(await catalog.service.db('events').where({ id: event.id }).first()).toMatchObject({
    cancelled_at: null,
    cancel_reason: null,
  });

  for (const id of [randomUUID(), 'nao-existe']) {
    const missing = await cancel(id);
    expect([missing.status, await missing.json()]).toEqual([404, { message: 'Evento não encontrado' }]);
  }

  const past = await catalog.createEvent({ date: inDays(-2) });
  const over = await cancel(past.id);
  expect([over.status, await over.json()]).toEqual([
    409,
    { message: 'Não é possível cancelar um evento que já aconteceu' },
  ]);
  expect(await cancellations(past.id)).toEqual([]);

  expect((await cancel(event.id, { reason: 'x'.repeat(500) })).status).toBe(202);
  const twice = await cancel(event.id, { reason: 'Outro motivo' });
  expect([twice.status, await twice.json()]).toEqual([409, { message: 'Este evento já foi cancelado' }]);
  expect((await catalog.service.db('events').where({ id: event.id }).first()).cancel_reason).toBe('x'.repeat(500));
  expect(await cancellations(event.id)).toHaveLength(1);
});

test('a cancelled event is sold no more, leaves the storefront and the door, and cannot be edited', async () => {
  const tag = `c${randomUUID().slice(0, 8)}`;
  const event = await catalog.createEvent({ title: `Encontro ${tag}`, maxAttendees: 10 });
  const kept = await catalog.createEvent({ title: `Mantido ${tag}` });
  const orderHold = `order:${randomUUID()}`;
  expect((await hold(event.id, orderHold)).status).toBe(200);
  expect((await cancel(event.id)).status).toBe(202);

  for (const [holdId, caller] of [
    [`order:${randomUUID()}`, 'orders'],
    [`courtesy-link:${randomUUID()}`, 'courtesy'],
  ]) {
    const refused = await hold(event.id, holdId!, caller);
    expect([refused.status, await refused.json()]).toEqual([409, { message: 'Evento cancelado' }]);
  }
  expect(await catalog.service.db('holds').where({ event_id: event.id })).toHaveLength(1);
  // The spots already held still go back when their orders are cancelled or refunded.
  expect((await catalog.request('DELETE', `/internal/events/${event.id}/holds/${orderHold}`)).status).toBe(200);
  expect((await catalog.service.db('events').where({ id: event.id }).first()).current_attendees).toBe(0);

  const listed = (await (await catalog.request('GET', `/api/events?q=${tag}`)).json()) as EventView[];
  expect(listed.map((found) => found.id)).toEqual([kept.id]);
  const all = (await (await catalog.request('GET', '/api/events')).json()) as EventView[];
  expect(all.map((found) => found.id)).not.toContain(event.id);
  for (const path of [`/api/events/${event.id}`, `/api/events/${event.id}/calendar.ics`]) {
    const gone = await catalog.request('GET', path);
    expect({ path, status: gone.status, body: await gone.json() }).toEqual({
      path,
      status: 404,
      body: { message: 'Evento cancelado' },
    });
  }
  // The door as administrators see it: every event a door may check in (door staff only see theirs).
  const doorToken = catalog.adminToken;
  const door = (await (await catalog.request('GET', '/api/door/events', { token: doorToken })).json()) as {
    id: string;
  }[];
  expect(door.map((found) => found.id)).toContain(kept.id);
  expect(door.map((found) => found.id)).not.toContain(event.id);

  for (const [method, path, body] of [
    ['PATCH', `/api/admin/events/${event.id}`, { title: 'Outro título' }],
    ['PATCH', `/api/admin/events/${event.id}`, { published: false }],
    ['PATCH', `/api/events/${event.id}`, { isActive: true }],
  ] as const) {
    const refused = await catalog.request(method, path, { token: catalog.adminToken, body });
    expect({ path, body, status: refused.status, answer: await refused.json() }).toEqual({
      path,
      body,
      status: 409,
      answer: { message: 'Não é possível alterar um evento cancelado' },
    });
  }
  expect((await catalog.service.db('events').where({ id: event.id }).first()).title).toBe(`Encontro ${tag}`);

  // Duplicating makes a new draft, not cancelled.
  const copy = await admin('POST', `/${event.id}/duplicate`);
  expect(copy.status).toBe(201);
  expect(await copy.json()).toMatchObject({ status: 'rascunho', cancelledAt: null, cancelReason: null });
});

test('only administrators cancel: anonymous 401; buyer, door staff and courtesy manager 403', async () => {
  const event = await catalog.createEvent();
  const anonymous = await catalog.request('POST', `/api/admin/events/${event.id}/cancel`, { body: { reason: REASON } });
  expect(anonymous.status).toBe(401);
  const roles: Parameters<Catalog['sign']>[0][] = [{}, { roles: ['doorStaff'] }, { roles: ['courtesyManager'] }];
  for (const claims of roles) {
    const refused = await cancel(event.id, { reason: REASON }, await catalog.sign(claims));
    expect({ claims, status: refused.status, body: await refused.json() }).toEqual({
      claims,
      status: 403,
      body: { message: 'Acesso restrito a administradores' },
    });
  }
  expect(await cancellations(event.id)).toEqual([]);
  expect((await cancel(event.id)).status).toBe(202);
});
