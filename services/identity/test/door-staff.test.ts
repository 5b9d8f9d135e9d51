import { randomUUID } from 'node:crypto';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  claimsOf,
  makeEmail,
  startIdentity,
  type Account,
  type Identity,
} from './support.ts';

let identity: Identity;
let admin: string;

beforeAll(async () => {
  identity = await startIdentity();
  admin = (await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD)).token;
});
afterAll(() => identity.stop());

const list = (eventId: string, token = admin) =>
  identity.request('GET', `/api/admin/users/door-staff?eventId=${eventId}`, { token });
const assign = (body: unknown, token = admin) =>
  identity.request('PUT', '/api/admin/users/door-staff', { token, body });
const grant = (email: string, roles: string[]) =>
  identity.request('PUT', '/api/admin/users/roles', { token: admin, body: { email, roles } });

/** The sets of events published for a staffer, oldest first. */
const published = async (userId: string) =>
  (await identity.events(userId, 'user.door-events-changed')).map((event) => {
    expect(event.userId).toBe(userId);
    return event.eventIds;
  });

const staffView = (...accounts: (Account & { name: string })[]) =>
  accounts.map(({ id, name, email }) => ({ id, name, email }));

test('an administrator sets an event’s door staff; each staffer’s full set of events is published', async () => {
  const ana = { ...(await identity.verified({ name: 'Ana Porta' })), name: 'Ana Porta' };
  const bruno = { ...(await identity.verified({ name: 'Bruno Porta' })), name: 'Bruno Porta' };
  const [eventA, eventB] = [randomUUID(), randomUUID()].sort();

  const first = await assign({ eventId: eventA, emails: [bruno.email.toUpperCase(), ana.email] });
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual({ staff: staffView(ana, bruno) });
  expect(await (await list(eventA)).json()).toEqual({ staff: staffView(ana, bruno) });
  expect(await (await list(randomUUID())).json()).toEqual({ staff: [] });

  expect((await assign({ eventId: eventB, emails: [ana.email] })).status).toBe(200);
  expect(await published(ana.id)).toEqual([[eventA], [eventA, eventB]]);
  expect(await published(bruno.id)).toEqual([[eventA]]);

  // Taking Bruno off event A: only his set changes; assigning the same staff again publishes nothing.
  expect(await (await assign({ eventId: eventA, emails: [ana.email] })).json()).toEqual({ staff: staffView(ana) });
  expect((await assign({ eventId: eventA, emails: [ana.email] })).status).toBe(200);
  expect(await published(bruno.id)).toEqual([[eventA], []]);
  expect(await published(ana.id)).toEqual([[eventA], [eventA, eventB]]);

  // Assigning granted the door role to whoever lacked it; it shows from the next login.
  expect(await identity.userRow(ana.id)).toMatchObject({ granted_roles: ['doorStaff'] });
  expect(claimsOf((await identity.login(ana.email, ana.password)).token).roles).toEqual(['doorStaff']);
});

test('an address that is not a verified account is named (422) and nothing changes', async () => {
  const staffer = await identity.verified();
  const unverified = await identity.registered();
  const nobody = makeEmail('ninguem');
  const eventId = randomUUID();
  expect((await assign({ eventId, emails: [staffer.email] })).status).toBe(200);
  const before = await published(staffer.id);

  const refused = await assign({ eventId, emails: [unverified.email, staffer.email, nobody] });
  expect({ status: refused.status, body: await refused.json() }).toEqual({
    status: 422,
    body: { message: `Não há conta com e-mail verificado para: ${unverified.email}, ${nobody}` },
  });
  const one = await assign({ eventId, emails: [nobody] });
  expect(await one.json()).toEqual({ message: `Não há conta com e-mail verificado para ${nobody}` });
  expect(await (await list(eventId)).json()).toEqual({
    staff: [{ id: staffer.id, name: 'Maria da Silva', email: staffer.email }],
  });
  expect(await published(staffer.id)).toEqual(before);
  expect(await identity.userRow(unverified.id)).toMatchObject({ granted_roles: [] });
  expect(await identity.events(unverified.id, 'user.door-events-changed')).toEqual([]);
});

test('only administrators, and only well-formed requests', async () => {
  const person = await identity.verified();
  const eventId = randomUUID();
  expect((await list(eventId, person.token)).status).toBe(403);
  expect((await assign({ eventId, emails: [person.email] }, person.token)).status).toBe(403);
  expect((await list(eventId, '')).status).toBe(401);
  const cases: [string, unknown, string][] = [
    ['GET', undefined, 'Evento inválido'],
    ['PUT', { eventId: 'nao-e-uuid', emails: [] }, 'Evento inválido'],
    ['PUT', { eventId, emails: 'a@b.com' }, 'Informe a lista de e-mails'],
    ['PUT', { eventId, emails: ['nao-e-email'] }, 'Email inválido'],
  ];
  for (const [method, body, message] of cases) {
    const response =
      method === 'GET'
        ? await identity.request('GET', '/api/admin/users/door-staff?eventId=x', { token: admin })
        : await assign(body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  expect(await identity.service.db('door_assignments').where({ event_id: eventId })).toEqual([]);
});

test('losing the door role, changing the e-mail or deleting the account ends every assignment (an empty set)', async () => {
  const eventId = randomUUID();
  const [demoted, moved, deleted] = [await identity.verified(), await identity.verified(), await identity.verified()];
  const emails = [demoted.email, moved.email, deleted.email];
  expect((await assign({ eventId, emails })).status).toBe(200);

  expect((await grant(demoted.email, [])).status).toBe(200);
  const movedToken = (await identity.login(moved.email, moved.password)).token;
  const changed = await identity.request('PUT', '/api/profile', {
    token: movedToken,
    body: { email: makeEmail('mudou'), currentPassword: moved.password },
  });
  expect(changed.status).toBe(200);
  const deletedToken = (await identity.login(deleted.email, deleted.password)).token;
  const gone = await identity.request('DELETE', '/api/profile', {
    token: deletedToken,
    body: { password: deleted.password },
  });
  expect(gone.status).toBe(200);

  for (const account of [demoted, moved, deleted]) expect(await published(account.id)).toEqual([[eventId], []]);
  expect(await (await list(eventId)).json()).toEqual({ staff: [] });
  expect(await identity.service.db('door_assignments').where({ event_id: eventId })).toEqual([]);
});

test('eight events assigned the same staffer at once: the last set published holds all eight', async () => {
  const staffer = await identity.verified();
  const events = Array.from({ length: 8 }, () => randomUUID());
  const answers = await Promise.all(events.map((eventId) => assign({ eventId, emails: [staffer.email] })));
  expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  const sets = await published(staffer.id);
  expect(sets).toHaveLength(8);
  expect(sets.map((set) => (set as string[]).length)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(sets.at(-1)).toEqual([...events].sort());
  expect(identity.unhandledErrors()).toEqual([]);
});
