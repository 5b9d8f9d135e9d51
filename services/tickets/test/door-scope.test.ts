import { randomUUID } from 'node:crypto';
import type { TokenVerifier } from '@ticketing/platform';
import type { DoorSearchView } from '@ticketing/proto';
import { parseQrText } from '@ticketing/proto';
import { startTickets, waitFor, type Harness, ticketRows } from './support.ts';

/**
 * The door as door staff see it: only the events an administrator assigned them, a look-up that gives nothing a
 * person could get in with or rebuild a CPF from, budgets per staffer, and live streams that end with the session,
 * the role or the assignment, a few per account.
 */
let tickets: Harness;
/** Tokens whose session ended, and tokens whose account lost its roles, as identity would answer for them. */
const ended = new Set<string>();
const rolesDropped = new Set<string>();

const endingSessions =
  (issued: TokenVerifier): TokenVerifier =>
  async (token) => {
    if (ended.has(token)) throw new Error('session ended');
    const user = await issued(token);
    return rolesDropped.has(token) ? { ...user, roles: [], isAdmin: false } : user;
  };

beforeAll(async () => {
  tickets = await startTickets({
    env: { DOOR_SEARCHES_PER_MINUTE: '30', DOOR_LIVE_RECHECK_SECONDS: '1', DOOR_LIVE_STREAMS_PER_USER: '3' },
    verifyToken: endingSessions,
  });
});
afterAll(() => tickets.stop());

/** A door staffer of their own (their own budgets and streams), assigned to `eventIds`. */
async function staffer(eventIds: string[]) {
  const id = randomUUID();
  const token = await tickets.sign({ id, roles: ['doorStaff'], name: 'Portaria Leste' });
  await tickets.assignDoor(eventIds, id);
  return { id, token };
}

async function call(method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const response = await fetch(tickets.verifier.url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

const searchPath = (eventId: string, q: string) => `/api/door/events/${eventId}/search?${new URLSearchParams({ q })}`;
const scansAt = (eventId: string) => tickets.db('scans').where({ door_event_id: eventId });

describe('door staff work only the events assigned to them', () => {
  test("door staff of event A get 403 in pt-BR on event B's list, search, counts, live, readings and admissions", async () => {
    const [eventA, eventB] = [randomUUID(), randomUUID()];
    const guestA = await tickets.issue({ eventId: eventA });
    const guestB = await tickets.issue({
      eventId: eventB,
      buyer: { name: 'Bruna Teles', email: 'bruna@exemplo.com.br' },
    });
    const { token } = await staffer([eventA]);
    const refused = { status: 403, body: { message: 'Você não está escalado para a portaria deste evento' } };
    const reading = {
      readingId: randomUUID(),
      claims: parseQrText(guestB.issued.qrText)!.claims,
      readAt: new Date().toISOString(),
      admitted: true,
    };

    const answers = {
      list: await call('GET', `/api/door/events/${eventB}/tickets`, token),
      search: await call('GET', searchPath(eventB, 'Bruna'), token),
      counts: await call('GET', `/api/door/events/${eventB}/counts`, token),
      live: await call('GET', `/api/door/events/${eventB}/live`, token),
      readings: await call('POST', '/api/door/readings', token, {
        deviceId: 'portaria-leste-1',
        eventId: eventB,
        readings: [reading],
      }),
      verify: await call('POST', '/api/verify-ticket', token, { qrCodeData: guestB.issued.qrText, eventId: eventB }),
      admit: await call('POST', `/api/door/events/${eventB}/tickets/${guestB.issued.ticketId}/admit`, token, {}),
    };
    for (const [what, answer] of Object.entries(answers))
      expect({ what, status: answer.status, body: answer.body }).toEqual({ what, ...refused });
    // Refused, not recorded: no reading, no admission, no check-in.
    expect(await scansAt(eventB)).toEqual([]);
    expect(await ticketRows(tickets.db, { id: guestB.issued.ticketId })).toEqual([
      expect.objectContaining({ used_at: null }),
    ]);
    expect(await tickets.events('ticket.checked-in', guestB.issued.ticketId)).toEqual([]);

    // Their own event's door answers.
    expect((await call('GET', `/api/door/events/${eventA}/tickets`, token)).status).toBe(200);
    expect((await call('GET', `/api/door/events/${eventA}/counts`, token)).status).toBe(200);
    const admitted = await call('POST', '/api/verify-ticket', token, {
      qrCodeData: guestA.issued.qrText,
      eventId: eventA,
    });
    expect(admitted.body).toMatchObject({ success: true, code: 'valid' });
    // Administrators work every door.
    expect((await call('GET', `/api/door/events/${eventB}/tickets`, tickets.admin.token)).status).toBe(200);
  });

  test('an assignment taken away closes the door at once; a new set replaces the old one', async () => {
    const [eventA, eventB] = [randomUUID(), randomUUID()];
    const { id, token } = await staffer([eventA]);
    expect((await call('GET', `/api/door/events/${eventA}/tickets`, token)).status).toBe(200);
    await tickets.assignDoor([eventB], id);
    expect((await call('GET', `/api/door/events/${eventA}/tickets`, token)).status).toBe(403);
    expect((await call('GET', `/api/door/events/${eventB}/tickets`, token)).status).toBe(200);
    await tickets.assignDoor([], id);
    expect((await call('GET', `/api/door/events/${eventB}/tickets`, token)).status).toBe(403);
    expect(await tickets.db('door_assignments').where({ user_id: id })).toEqual([]);
  });
});

describe('the look-up', () => {
  const eventId = randomUUID();
  let token: string;
  beforeAll(async () => {
    ({ token } = await staffer([eventId]));
    await tickets.issue({
      eventId,
      buyer: { name: 'Joana Prado Antunes', email: 'joana.prado@exemplo.com.br', cpf: '026.750.258-36' },
    });
  });

  const search = async (q: string) => {
    const answer = await call('GET', searchPath(eventId, q), token);
    expect(answer.status).toBe(200);
    return (answer.body as DoorSearchView).tickets.map((hit) => hit.holderName);
  };

  test('never answers a QR text', async () => {
    const answer = await call('GET', searchPath(eventId, 'joana'), token);
    const [hit] = (answer.body as DoorSearchView).tickets;
    expect(Object.keys(hit!).sort()).toEqual(
      [
        'cpf',
        'holderEmail',
        'holderName',
        'orderId',
        'orderNumber',
        'status',
        'ticketId',
        'ticketType',
        'usedAt',
      ].sort(),
    );
    const { qr_text: qrText } = await tickets.db('tickets').where({ id: hit!.ticketId }).first();
    expect(JSON.stringify(answer.body)).not.toContain(qrText);
  });

  test('finds a CPF or an e-mail only whole, and names by their words', async () => {
    for (const q of ['026', '026.750', '0267502', '026.750.258', '02675025836 0'])
      expect({ q, found: await search(q) }).toEqual({ q, found: [] });
    for (const q of ['026.750.258-36', '02675025836']) expect(await search(q)).toEqual(['Joana Prado Antunes']);
    for (const q of ['joana.prado@', 'prado@exemplo', 'exemplo.com.br'])
      expect({ q, found: await search(q) }).toEqual({ q, found: [] });
    expect(await search('JOANA.PRADO@exemplo.com.br')).toEqual(['Joana Prado Antunes']);
    for (const q of ['antunes joana', 'prado', 'JOANA']) expect(await search(q)).toEqual(['Joana Prado Antunes']);
    expect(await search('joana silva')).toEqual([]);
  });

  test('admits by the ticket id, as a reading at this door; a ticket of another event is a 404', async () => {
    const guest = await tickets.issue({ eventId, buyer: { name: 'Caio Neves', email: 'caio@exemplo.com.br' } });
    const path = `/api/door/events/${eventId}/tickets/${guest.issued.ticketId}/admit`;
    const first = await call('POST', path, token, { deviceId: 'portaria-leste-1' });
    expect(first).toMatchObject({ status: 200, body: { success: true, code: 'valid', userName: 'Caio Neves' } });
    const again = await call('POST', path, token, { deviceId: 'portaria-leste-1' });
    expect(again.body).toMatchObject({ success: false, code: 'already_used' });
    expect(
      (await tickets.db('scans').where({ ticket_id: guest.issued.ticketId }).orderBy('scanned_at')).map(
        (scan) => scan.code,
      ),
    ).toEqual(['valid', 'already_used']);
    expect(await tickets.events('ticket.checked-in', guest.issued.ticketId)).toHaveLength(1);

    const elsewhere = await tickets.issue();
    expect(
      await call('POST', `/api/door/events/${eventId}/tickets/${elsewhere.issued.ticketId}/admit`, token, {}),
    ).toMatchObject({
      status: 404,
      body: { message: 'Ingresso não encontrado neste evento' },
    });
    expect(await call('POST', `/api/door/events/${eventId}/tickets/nao-e-um-id/admit`, token, {})).toMatchObject({
      status: 400,
      body: { message: 'Identificador do ingresso inválido' },
    });
  });
});

describe('budgets per staffer', () => {
  test('searches beyond the budget are a 429 in pt-BR for that staffer only, not for others at the same address', async () => {
    const eventId = randomUUID();
    const busy = await staffer([eventId]);
    const other = await staffer([eventId]);
    const answers = await Promise.all(
      Array.from({ length: 35 }, () => call('GET', searchPath(eventId, 'maria'), busy.token)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body).toEqual({ message: 'Muitas buscas seguidas. Aguarde alguns segundos e tente novamente.' });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', searchPath(eventId, 'maria'), other.token)).status).toBe(200);
  });

  test('a busy door (a reading every 300 ms, 200 a minute) is never refused; past 600 a minute it is', async () => {
    const eventId = randomUUID();
    const { token } = await staffer([eventId]);
    const read = () => call('POST', '/api/verify-ticket', token, { qrCodeData: 'não é um ingresso', eventId });
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch++)
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, read))).map((answer) => answer.status));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const over = await read();
    expect({ status: over.status, body: over.body }).toEqual({
      status: 429,
      body: { message: 'Muitas leituras seguidas. Aguarde alguns segundos e tente novamente.' },
    });
    // The refused reading is not recorded.
    expect(await scansAt(eventId)).toHaveLength(600);
  });

  test('door answers carry the security headers the gateway gives the rest', async () => {
    const eventId = randomUUID();
    const { token } = await staffer([eventId]);
    for (const answer of [
      await call('GET', `/api/door/events/${eventId}/tickets`, token),
      await call('GET', `/api/door/events/${randomUUID()}/tickets`, token),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('strict-transport-security')).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
    }
  });
});

describe('live streams', () => {
  interface Stream {
    status: number;
    body: unknown;
    text: string;
    ended: boolean;
    close(): void;
  }

  /** Opens the event's live stream as a door panel does and keeps reading until it ends. */
  async function openStream(eventId: string, token: string): Promise<Stream> {
    const controller = new AbortController();
    const response = await fetch(`${tickets.verifier.url}/api/door/events/${eventId}/live`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    const stream: Stream = {
      status: response.status,
      body: null,
      text: '',
      ended: false,
      close: () => controller.abort(),
    };
    if (response.status !== 200) {
      stream.body = await response.json();
      stream.ended = true;
      return stream;
    }
    void (async () => {
      try {
        for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) stream.text += chunk;
      } catch {
        // Closed by the test.
      }
      stream.ended = true;
    })();
    await waitFor(() => stream.text.includes('event: counts'));
    return stream;
  }

  const closedMessage =
    'event: closed\ndata: {"message":"O painel foi fechado: sua sessão terminou ou você não está mais escalado para este evento."}';

  test('a stream closes when its session ends, its role goes or its assignment goes', async () => {
    const eventId = randomUUID();
    const tokens = await Promise.all([staffer([eventId]), staffer([eventId]), staffer([eventId])]);
    const [session, role, assignment] = await Promise.all(tokens.map(({ token }) => openStream(eventId, token)));
    const control = await openStream(eventId, tickets.admin.token);

    ended.add(tokens[0]!.token);
    rolesDropped.add(tokens[1]!.token);
    await tickets.assignDoor([], tokens[2]!.id);
    for (const stream of [session!, role!, assignment!]) {
      await waitFor(() => stream.ended, { timeoutMs: 10_000 });
      expect(stream.text).toContain(closedMessage);
    }
    // The administrator's stream goes on.
    expect(control.ended).toBe(false);
    control.close();
  });

  test('an account keeps at most 3 streams open: a fourth is refused until one closes', async () => {
    const eventId = randomUUID();
    const { token } = await staffer([eventId]);
    const streams = await Promise.all(Array.from({ length: 3 }, () => openStream(eventId, token)));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const fourth = await openStream(eventId, token);
    expect({ status: fourth.status, body: fourth.body }).toEqual({
      status: 429,
      body: { message: 'Há painéis ao vivo demais abertos nesta conta. Feche um deles e tente de novo.' },
    });
    // Another account is not affected.
    const other = await openStream(eventId, (await staffer([eventId])).token);
    expect(other.status).toBe(200);

    streams[0]!.close();
    const reopened = await waitFor(async () => {
      const attempt = await openStream(eventId, token);
      return attempt.status === 200 && attempt;
    });
    expect(reopened.ended).toBe(false);
    for (const stream of [...streams, reopened, other]) stream.close();
  });

  test('many streams opened at once by one account: exactly 3 are kept', async () => {
    const eventId = randomUUID();
    const { token } = await staffer([eventId]);
    const streams = await Promise.all(Array.from({ length: 10 }, () => openStream(eventId, token)));
    expect(streams.filter((stream) => stream.status === 200)).toHaveLength(3);
    expect(streams.filter((stream) => stream.status === 429)).toHaveLength(7);
    for (const stream of streams) stream.close();
  });
});
