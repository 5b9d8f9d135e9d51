import { randomUUID } from 'node:crypto';
import { ed25519PrivateKey } from '@ticketing/platform';
import { parseQrText } from '@ticketing/proto';
import { generateKeyMaterial, signTicket } from '../src/index.ts';
import { newestSigningKey } from '../src/data/signing-keys-repository.ts';
import { orderPaid, startTickets, type Harness, type IssuedTicket, ticketRows } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

const ticketRow = async (id: string) => (await ticketRows(tickets.db, { id }))[0]!;
const scansOf = (ticketId: string | null) =>
  ticketId === null
    ? tickets.db('scans').whereNull('ticket_id').orderBy('scanned_at')
    : tickets.db('scans').where({ ticket_id: ticketId }).orderBy('scanned_at');
const checkIns = (ticketId: string) => tickets.events('ticket.checked-in', ticketId);

/** Flips one bit of one byte inside a base64url part of the QR text. */
function alterByte(qrText: string, part: 1 | 3, index: number): string {
  const parts = qrText.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[index] = bytes[index]! ^ 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

/** The service's own signing key, as the worker uses it: to make QR codes the door must still judge. */
async function serviceKey() {
  const row = await newestSigningKey(tickets.db);
  return { kid: row!.kid, privateKey: ed25519PrivateKey(row!.private_key) };
}

describe('a valid ticket', () => {
  let ticket: IssuedTicket;
  beforeAll(async () => {
    ticket = await tickets.issue({ buyer: { name: 'João Pereira', email: 'joao@example.com.br' } });
  });

  test('is admitted once: answer, stored check-in, scan, event and log', async () => {
    const { issued, order } = ticket;
    const answer = await tickets.scan(issued.qrText, order.eventId);
    const row = await ticketRow(issued.ticketId);
    expect(answer).toEqual({
      success: true,
      userName: 'João Pereira',
      ticketType: null,
      message: 'Ingresso válido',
      code: 'valid',
      eventTitle: 'Workshop de Farmacovigilância',
      usedAt: row.used_at.toISOString(),
      sessionId: order.eventId,
      ticketId: issued.ticketId,
      orderId: order.orderId,
    });
    expect(row).toMatchObject({ used_by: tickets.admin.id, status: 'valid', version: 1 });
    expect(await scansOf(issued.ticketId)).toEqual([
      expect.objectContaining({ code: 'valid', scanned_by: tickets.admin.id, door_event_id: order.eventId }),
    ]);
    expect(await checkIns(issued.ticketId)).toEqual([
      {
        ticketId: issued.ticketId,
        orderId: order.orderId,
        eventId: order.eventId,
        sessionId: order.eventId,
        usedAt: row.used_at.toISOString(),
        scannedBy: tickets.admin.id,
      },
    ]);
    expect(tickets.logs.lines).toContainEqual(
      expect.objectContaining({
        service: 'tickets-verifier',
        msg: 'ticket checked in',
        ticketId: issued.ticketId,
        code: 'valid',
        scannedBy: tickets.admin.id,
      }),
    );
  });

  test('scanned again, it is refused as already used with the time in pt-BR (São Paulo)', async () => {
    const { issued, order } = ticket;
    const before = await ticketRow(issued.ticketId);
    const answer = await tickets.scan(issued.qrText);
    const sp = new Intl.DateTimeFormat('pt-BR', {
      timeZone: 'America/Sao_Paulo',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(before.used_at);
    const part = (type: string) => sp.find((entry) => entry.type === type)!.value;
    expect(answer).toEqual({
      success: false,
      userName: 'João Pereira',
      ticketType: null,
      message: `Ingresso já utilizado em ${part('day')}/${part('month')}/${part('year')} às ${part('hour')}:${part('minute')}`,
      code: 'already_used',
      eventTitle: 'Workshop de Farmacovigilância',
      usedAt: before.used_at.toISOString(),
      sessionId: order.eventId,
      ticketId: issued.ticketId,
      orderId: order.orderId,
    });
    // Nothing changes but the record of the refused scan.
    expect(await ticketRow(issued.ticketId)).toEqual(before);
    expect((await scansOf(issued.ticketId)).map((scan) => scan.code)).toEqual(['valid', 'already_used']);
    expect(await checkIns(issued.ticketId)).toHaveLength(1);
    expect(tickets.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'ticket refused', ticketId: issued.ticketId, code: 'already_used' }),
    );

    // A known instant reads as the door's wall clock: 22:42 UTC is 19:42 in São Paulo.
    await tickets
      .db('tickets')
      .where({ id: issued.ticketId })
      .update({
        admissions: { [order.eventId]: { at: '2027-03-12T22:42:00Z', by: tickets.admin.id, device: null } },
      });
    const known = await tickets.scan(issued.qrText);
    expect(known.message).toBe('Ingresso já utilizado em 12/03/2027 às 19:42');
    expect(known.usedAt).toBe('2027-03-12T22:42:00.000Z');
  });
});

test('an altered or forged QR code is refused as invalid and admits nobody', async () => {
  const { issued, order } = await tickets.issue();
  const parsed = parseQrText(issued.qrText)!;
  const foreign = generateKeyMaterial();
  const foreignKey = ed25519PrivateKey(foreign.privateKey);
  const claims = { ticketId: issued.ticketId, eventId: order.eventId, version: 1 };
  const forgeries = [
    alterByte(issued.qrText, 1, 0), // ticket id
    alterByte(issued.qrText, 1, 20), // event id
    alterByte(issued.qrText, 1, 32), // version
    alterByte(issued.qrText, 3, 0), // signature, first byte
    alterByte(issued.qrText, 3, 63), // signature, last byte
    signTicket(claims, { kid: foreign.kid, privateKey: foreignKey }), // another key, unknown id
    signTicket(claims, { kid: parsed.kid, privateKey: foreignKey }), // another key posing as ours
    issued.qrText.replace(/^T1\./, 'T2.'),
    `${issued.qrText}x`,
    issued.qrText.slice(0, -1),
    issued.ticketId,
    'https://exemplo.com.br/ingresso/123',
    'não é um ingresso',
  ];
  const invalidBefore = (await scansOf(null)).length;
  for (const qrCodeData of forgeries) {
    expect({ qrCodeData, answer: await tickets.scan(qrCodeData) }).toEqual({
      qrCodeData,
      answer: {
        success: false,
        userName: null,
        ticketType: null,
        message: 'QR Code inválido',
        code: 'invalid',
        eventTitle: null,
        sessionId: null,
        ticketId: null,
        orderId: null,
      },
    });
  }
  expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null, used_by: null });
  expect(await scansOf(issued.ticketId)).toEqual([]);
  const invalidScans = (await scansOf(null)).slice(invalidBefore);
  expect(invalidScans).toHaveLength(forgeries.length);
  expect(invalidScans.every((scan) => scan.code === 'invalid' && scan.scanned_by === tickets.admin.id)).toBe(true);
  expect(await checkIns(issued.ticketId)).toEqual([]);

  // The genuine QR code still works afterwards.
  expect((await tickets.scan(issued.qrText)).code).toBe('valid');
});

test('a ticket of another event is refused and stays admissible at its own door', async () => {
  const { issued, order } = await tickets.issue({
    event: { title: 'Simpósio de Assuntos Regulatórios', date: '2027-05-02T12:00:00.000Z', location: 'Curitiba – PR' },
  });
  const otherDoor = randomUUID();
  expect(await tickets.scan(issued.qrText, otherDoor)).toEqual({
    success: false,
    userName: 'Maria da Silva',
    ticketType: null,
    message: 'Ingresso de outro evento: Simpósio de Assuntos Regulatórios',
    code: 'wrong_event',
    eventTitle: 'Simpósio de Assuntos Regulatórios',
    sessionId: null,
    ticketId: issued.ticketId,
    orderId: order.orderId,
  });
  expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null });
  expect(await scansOf(issued.ticketId)).toEqual([
    expect.objectContaining({ code: 'wrong_event', door_event_id: otherDoor }),
  ]);
  expect(await checkIns(issued.ticketId)).toEqual([]);

  expect((await tickets.scan(issued.qrText, order.eventId)).code).toBe('valid');
});

test('cancelled, unknown and re-issued tickets are refused with their own code', async () => {
  const key = await serviceKey();
  const cancelled = await tickets.issue();
  await tickets.db('tickets').where({ id: cancelled.issued.ticketId }).update({ status: 'cancelled' });
  expect(await tickets.scan(cancelled.issued.qrText)).toEqual({
    success: false,
    userName: 'Maria da Silva',
    ticketType: null,
    message: 'Ingresso cancelado',
    code: 'cancelled',
    eventTitle: 'Workshop de Farmacovigilância',
    sessionId: cancelled.order.eventId,
    ticketId: cancelled.issued.ticketId,
    orderId: cancelled.order.orderId,
  });

  // Correctly signed, but naming no ticket of ours.
  const ghostId = randomUUID();
  expect(await tickets.scan(signTicket({ ticketId: ghostId, eventId: randomUUID(), version: 1 }, key))).toEqual({
    success: false,
    userName: null,
    ticketType: null,
    message: 'Ingresso não encontrado',
    code: 'not_found',
    eventTitle: null,
    sessionId: null,
    ticketId: null,
    orderId: null,
  });

  // The ticket was re-issued (version 2): the old QR code is refused, the new one admits.
  const reissued = await tickets.issue();
  const { ticketId } = reissued.issued;
  const { eventId } = reissued.order;
  await tickets.db('tickets').where({ id: ticketId }).update({ version: 2 });
  expect(await tickets.scan(reissued.issued.qrText)).toEqual({
    success: false,
    userName: 'Maria da Silva',
    ticketType: null,
    message: 'QR Code inválido: este ingresso foi reemitido, apresente o QR Code mais recente',
    code: 'invalid',
    eventTitle: 'Workshop de Farmacovigilância',
    sessionId: eventId,
    ticketId,
    orderId: reissued.order.orderId,
  });
  expect((await tickets.scan(signTicket({ ticketId, eventId, version: 2 }, key))).code).toBe('valid');

  for (const [id, codes] of [
    [cancelled.issued.ticketId, ['cancelled']],
    [ghostId, ['not_found']],
    [ticketId, ['invalid', 'valid']],
  ] as const) {
    expect((await scansOf(id)).map((scan) => scan.code)).toEqual(codes);
  }
  expect(await ticketRow(cancelled.issued.ticketId)).toMatchObject({ used_at: null, status: 'cancelled' });
  expect(await checkIns(cancelled.issued.ticketId)).toEqual([]);
  expect(await checkIns(ticketId)).toHaveLength(1);
});

test('door staff and administrators verify, only administrators reset: 401 anonymous, 403 others, nothing recorded', async () => {
  const { issued, order } = await tickets.issue();
  const anonymous = 'Não autenticado. Faça login para continuar.';
  const invalid = 'Sessão inválida ou expirada. Faça login novamente.';
  const cases: [string | null, [number, string], [number, string]][] = [
    [null, [401, anonymous], [401, anonymous]],
    ['nao.e.um.token', [401, invalid], [401, invalid]],
    [tickets.userToken, [403, 'Acesso restrito à equipe de portaria'], [403, 'Acesso restrito a administradores']],
  ];
  for (const [token, [verifyStatus, verifyMessage], [resetStatus, resetMessage]] of cases) {
    const verify = await tickets.verify({ qrCodeData: issued.qrText }, { token });
    expect({ status: verify.status, body: await verify.json() }).toEqual({
      status: verifyStatus,
      body: { message: verifyMessage },
    });
    const reset = await tickets.reset(order.orderId, token);
    expect({ status: reset.status, body: await reset.json() }).toEqual({
      status: resetStatus,
      body: { message: resetMessage },
    });
  }
  // Door staff who are not administrators may not let a used ticket in again.
  const staffReset = await tickets.reset(order.orderId, tickets.doorStaffToken);
  expect({ status: staffReset.status, body: await staffReset.json() }).toEqual({
    status: 403,
    body: { message: 'Acesso restrito a administradores' },
  });
  expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null });
  expect(await scansOf(issued.ticketId)).toEqual([]);
  expect(await tickets.db('resets').where({ ticket_id: issued.ticketId })).toEqual([]);
});

test('bad input is a 400 with a pt-BR message, never a 500, and records no scan', async () => {
  const scansBefore = await tickets.db('scans').count({ n: '*' }).first();
  const cases: [unknown, string][] = [
    [{}, 'Informe o conteúdo do QR Code (qrCodeData)'],
    [{ qrCodeData: null }, 'Informe o conteúdo do QR Code (qrCodeData)'],
    [{ qrCodeData: 12345 }, 'Informe o conteúdo do QR Code (qrCodeData)'],
    [{ qrCodeData: { text: 'T1' } }, 'Informe o conteúdo do QR Code (qrCodeData)'],
    [{ qrCodeData: '   ' }, 'Informe o conteúdo do QR Code (qrCodeData)'],
    [{ qrCodeData: 'T1.'.repeat(2000) }, 'QR Code inválido: conteúdo grande demais'],
    [{ qrCodeData: 'T1.abc', eventId: 'evento-1' }, 'Identificador do evento inválido'],
    [{ qrCodeData: 'T1.abc', eventId: 42 }, 'Identificador do evento inválido'],
    [{ qrCodeData: 'T1.abc', deviceId: 'curto' }, 'Identificador do dispositivo inválido'],
    [{ qrCodeData: 'T1\u0000abc' }, 'Texto com caracteres inválidos'],
    [['T1.abc'], 'Dados da leitura inválidos'],
    [null, 'Requisição inválida: verifique os dados enviados (JSON malformado?)'],
    ['T1.abc', 'Requisição inválida: verifique os dados enviados (JSON malformado?)'],
  ];
  for (const [body, message] of cases) {
    const response = await tickets.verify(body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  const malformed = await tickets.verify(undefined, { raw: '{"qrCodeData": ' });
  expect(malformed.status).toBe(400);
  expect(await malformed.json()).toEqual({
    message: 'Requisição inválida: verifique os dados enviados (JSON malformado?)',
  });
  expect(await tickets.db('scans').count({ n: '*' }).first()).toEqual(scansBefore);
  expect(tickets.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

describe('reset', () => {
  test('lets a used ticket in again: answer, cleared check-in, reset record, event and log', async () => {
    const { issued, order } = await tickets.issue();
    expect((await tickets.scan(issued.qrText)).code).toBe('valid');
    const used = await ticketRow(issued.ticketId);

    const response = await tickets.reset(order.orderId);
    expect(response.status).toBe(200);
    const [reset] = await tickets.db('resets').where({ ticket_id: issued.ticketId });
    expect(await response.json()).toEqual({
      message: 'Ingresso liberado para uma nova leitura',
      ticketId: issued.ticketId,
      orderId: order.orderId,
      sessionId: null,
      resetAt: reset.reset_at.toISOString(),
    });
    expect(reset).toMatchObject({
      reset_by: tickets.admin.id,
      previous_used_at: used.used_at,
      previous_used_by: tickets.admin.id,
    });
    expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null, used_by: null, version: 1 });
    expect(await tickets.events('ticket.reset', issued.ticketId)).toEqual([
      {
        ticketId: issued.ticketId,
        orderId: order.orderId,
        resetBy: tickets.admin.id,
        resetAt: reset.reset_at.toISOString(),
        sessionId: null,
        firstUsedAt: null,
      },
    ]);
    expect(tickets.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'ticket reset', ticketId: issued.ticketId, orderId: order.orderId }),
    );

    // The same QR code admits once more, by another administrator, and only once.
    const otherAdmin = randomUUID();
    const again = await tickets.verify({ qrCodeData: issued.qrText }, { token: await tickets.adminToken(otherAdmin) });
    expect(await again.json()).toMatchObject({ success: true, code: 'valid', userName: 'Maria da Silva' });
    expect((await tickets.scan(issued.qrText)).code).toBe('already_used');
    expect(await ticketRow(issued.ticketId)).toMatchObject({ used_by: otherAdmin });
    expect((await checkIns(issued.ticketId)).map((event) => event.scannedBy)).toEqual([tickets.admin.id, otherAdmin]);
    expect((await scansOf(issued.ticketId)).map((scan) => scan.code)).toEqual(['valid', 'valid', 'already_used']);
  });

  test('a ticket not used yet is 409; an unknown order is 404', async () => {
    const { issued, order } = await tickets.issue();
    const unused = await tickets.reset(order.orderId);
    expect(unused.status).toBe(409);
    expect(await unused.json()).toEqual({ message: 'Este ingresso ainda não foi utilizado' });
    for (const orderId of [randomUUID(), 'pedido-123']) {
      const unknown = await tickets.reset(orderId);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ message: 'Ingresso não encontrado' });
    }
    expect(await tickets.db('resets').where({ ticket_id: issued.ticketId })).toEqual([]);
    expect(await tickets.events('ticket.reset', issued.ticketId)).toEqual([]);
    expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null });
  });
});

test('door staff who are not administrators admit tickets at the door of the event they chose', async () => {
  const { issued, order } = await tickets.issue();
  const token = tickets.doorStaffToken;
  const otherDoor = randomUUID();
  await tickets.assignDoor([order.eventId, otherDoor]);
  // 'Todos os eventos' is for administrators: door staff name the event or nothing is read.
  const anyEvent = await tickets.verify({ qrCodeData: issued.qrText }, { token });
  expect({ status: anyEvent.status, body: await anyEvent.json() }).toEqual({
    status: 403,
    body: { message: 'Escolha o evento desta entrada antes de ler ingressos' },
  });
  expect(await scansOf(issued.ticketId)).toEqual([]);

  const otherEvent = await tickets.verify({ qrCodeData: issued.qrText, eventId: otherDoor }, { token });
  expect(await otherEvent.json()).toMatchObject({ success: false, code: 'wrong_event' });

  const verify = await tickets.verify(
    { qrCodeData: issued.qrText, eventId: order.eventId, deviceId: 'portaria-norte-01' },
    { token },
  );
  expect(verify.status).toBe(200);
  expect(await verify.json()).toMatchObject({
    success: true,
    code: 'valid',
    ticketId: issued.ticketId,
    orderId: order.orderId,
  });
  expect(await ticketRow(issued.ticketId)).toMatchObject({
    status: 'valid',
    used_at: expect.any(Date),
    used_device: 'portaria-norte-01',
  });
  expect(
    (await scansOf(issued.ticketId)).map(({ code, device_id, staff_name }) => ({ code, device_id, staff_name })),
  ).toEqual([
    { code: 'wrong_event', device_id: null, staff_name: 'Equipe da portaria' },
    { code: 'valid', device_id: 'portaria-norte-01', staff_name: 'Equipe da portaria' },
  ]);
});

test('the door names an event as catalog last announced it: a rename wins, an older announcement or order copy never brings the old title back', async () => {
  const { order, issued } = await tickets.issue();
  const otherDoor = randomUUID();
  const announce = (title: string) =>
    tickets.emit('event.changed', {
      eventId: order.eventId,
      title,
      date: order.event.date,
      location: order.event.location,
      price: '150.00',
      isActive: true,
      listed: true,
      maxAttendees: null,
    });
  const first = await announce('Workshop de Farmacovigilância — Turma 2');
  const latest = await announce('Workshop de Farmacovigilância — Turma 3');
  await tickets.handled(first, latest);
  // Older than what is kept, arriving late under another id (a producer's retry, another partition's order copy).
  const late = { ...first, id: randomUUID() };
  await tickets.redeliver(late);
  const copy = orderPaid({ eventId: order.eventId });
  await tickets.handled(late, await tickets.publish(copy));

  expect(await tickets.scan(issued.qrText, otherDoor)).toMatchObject({
    code: 'wrong_event',
    message: 'Ingresso de outro evento: Workshop de Farmacovigilância — Turma 3',
  });
  expect(await tickets.scan(issued.qrText, order.eventId)).toMatchObject({
    code: 'valid',
    eventTitle: 'Workshop de Farmacovigilância — Turma 3',
  });
});
