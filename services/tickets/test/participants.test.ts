import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { erasedPerson, type ParticipantsView } from '@ticketing/proto';
import { keepEventCopy, toTicketRow } from '../src/index.ts';
import {
  orderPaid,
  orderRefunded,
  startTickets,
  waitFor,
  type Harness,
  type IssuedTicket,
  ticketRows,
} from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

function request(method: 'GET' | 'POST', path: string, token: string | null = tickets.admin.token) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return fetch(tickets.verifier.url + path, { method, headers });
}

async function participants(query: Record<string, string>): Promise<ParticipantsView> {
  const response = await request('GET', `/api/admin/tickets?${new URLSearchParams(query)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ParticipantsView;
}

const names = (view: ParticipantsView) => view.tickets.map((ticket) => ticket.holderName);

async function exported(query: Record<string, string>) {
  const response = await request('GET', `/api/admin/tickets/export.csv?${new URLSearchParams(query)}`);
  expect(response.status).toBe(200);
  // Read as bytes: response.text() would drop the byte order mark Excel needs.
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, rows: parse(bytes, { delimiter: ';', bom: true }) as string[][] };
}

const resend = (ticketId: string, token?: string | null) =>
  request('POST', `/api/admin/tickets/${ticketId}/resend`, token);

/** `12/03/2027 19:42`: an instant on São Paulo's clock (UTC−03:00 all year). */
function saoPaulo(at: Date): string {
  const [date, time] = new Date(at.getTime() - 3 * 3_600_000).toISOString().split('T');
  const [year, month, day] = date!.split('-');
  return `${day}/${month}/${year} ${time!.slice(0, 5)}`;
}

/**
 * One event's participants: a PIX buyer checked in, a courtesy guest, a card buyer refunded, a holder whose name a
 * spreadsheet would run, and a ticket issued before order.paid said how it was paid; plus another event's ticket.
 */
async function eventWithParticipants() {
  const eventId = randomUUID();
  const event = { title: 'Simpósio de Farmácia Clínica: São Paulo', date: '2027-03-12T22:00:00.000Z', location: 'SP' };
  const conceicao = await tickets.issue({
    eventId,
    event,
    paymentMethod: 'pix',
    buyer: { name: 'Conceição Araújo', email: 'conceicao.araujo@exemplo.com.br', cpf: '529.982.247-25' },
  });
  const bruno = await tickets.issue({
    eventId,
    event,
    amount: '0.00',
    paymentMethod: 'courtesy',
    courtesyLinkId: randomUUID(),
    buyer: { name: 'Bruno Convidado', email: 'bruno@exemplo.com.br', cpf: '111.444.777-35' },
  });
  const ana = await tickets.issue({
    eventId,
    event,
    paymentMethod: 'credit_card',
    buyer: { name: 'Ana Cartão', email: 'ana@exemplo.com.br', cpf: null },
  });
  const formula = await tickets.issue({
    eventId,
    event,
    paymentMethod: 'boleto',
    buyer: { name: '=1+1', email: 'formula@exemplo.com.br', cpf: null },
  });
  const older = await tickets.issue({ eventId, event, buyer: { name: 'Davi Antigo', email: 'davi@exemplo.com.br' } });
  await tickets.issue({
    paymentMethod: 'pix',
    buyer: { name: 'Conceição de Outro Evento', email: 'x@exemplo.com.br' },
  });
  expect((await tickets.scan(conceicao.issued.qrText, eventId)).code).toBe('valid');
  await tickets.handled(await tickets.emit('order.refunded', orderRefunded(ana.order)));
  const [{ used_at: checkedIn }] = await ticketRows(tickets.db, { id: conceicao.issued.ticketId });
  return { eventId, conceicao, bruno, ana, formula, older, checkedIn };
}

test('order.paid keeps how the ticket was paid; one sent before it said so still issues the ticket, without it', async () => {
  const paid = await tickets.issue({ paymentMethod: 'courtesy', amount: '0.00', courtesyLinkId: randomUUID() });
  // As orders wrote it before it said how the order was paid.
  const older = orderPaid();
  expect(older).not.toHaveProperty('paymentMethod');
  await tickets.publish(older);
  const [issued] = await waitFor(async () => {
    const rows = await tickets.db('tickets').where({ order_id: older.orderId });
    return rows.length === 1 && rows;
  });
  expect(issued).toMatchObject({ payment_method: null, status: 'valid' });
  expect(await tickets.db('tickets').where({ order_id: paid.order.orderId }).first()).toMatchObject({
    payment_method: 'courtesy',
  });
});

describe('an event’s participants', () => {
  let event: Awaited<ReturnType<typeof eventWithParticipants>>;
  beforeAll(async () => {
    event = await eventWithParticipants();
  });

  test('lists every ticket, bought and courtesy, by name, the CPF masked, with the whole event’s totals', async () => {
    const view = await participants({ eventId: event.eventId });
    expect(names(view)).toEqual(['=1+1', 'Ana Cartão', 'Bruno Convidado', 'Conceição Araújo', 'Davi Antigo']);
    const row = (ticket: IssuedTicket) => view.tickets.find((one) => one.ticketId === ticket.issued.ticketId);
    expect(row(event.conceicao)).toEqual({
      ticketId: event.conceicao.issued.ticketId,
      orderId: event.conceicao.order.orderId,
      orderNumber: event.conceicao.order.orderNumber,
      ticketType: null,
      holderName: 'Conceição Araújo',
      holderEmail: 'conceicao.araujo@exemplo.com.br',
      cpf: '***.982.247-**',
      paymentMethod: 'pix',
      status: 'valid',
      checkedInAt: event.checkedIn.toISOString(),
      admissions: { [event.eventId]: event.checkedIn.toISOString() },
    });
    expect(row(event.bruno)).toMatchObject({ paymentMethod: 'courtesy', cpf: '***.444.777-**', checkedInAt: null });
    expect(row(event.ana)).toMatchObject({ paymentMethod: 'credit_card', status: 'cancelled', cpf: null });
    expect(row(event.older)).toMatchObject({ paymentMethod: null, status: 'valid' });
    expect(view).toMatchObject({
      eventId: event.eventId,
      page: 1,
      matching: 5,
      totalPages: 1,
      totals: { tickets: 5, checkedIn: 1, cancelled: 1 },
    });
  });

  test('finds holders as the door does, by name, e-mail, CPF or order, and filters by status and check-in', async () => {
    const { eventId } = event;
    for (const q of [
      'conceicao',
      'ARAÚJO',
      '529.982',
      '52998224725',
      'CONCEICAO.ARAUJO@',
      event.conceicao.order.orderNumber,
    ])
      expect({ q, found: names(await participants({ eventId, q })) }).toEqual({ q, found: ['Conceição Araújo'] });
    expect(names(await participants({ eventId, status: 'cancelled' }))).toEqual(['Ana Cartão']);
    expect(names(await participants({ eventId, checkedIn: 'true' }))).toEqual(['Conceição Araújo']);
    expect(names(await participants({ eventId, checkedIn: 'false', status: 'valid' }))).toEqual([
      '=1+1',
      'Bruno Convidado',
      'Davi Antigo',
    ]);
    const none = await participants({ eventId, q: 'ninguém', status: '', checkedIn: '' });
    // The totals stay the event's: the filters only choose the rows.
    expect(none).toMatchObject({ tickets: [], matching: 0, totals: { tickets: 5, checkedIn: 1, cancelled: 1 } });
  });

  test('exports every matching row as a spreadsheet named after the event, CPF in full, formulas kept as text', async () => {
    const { response, bytes, rows } = await exported({ eventId: event.eventId });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Participantes - Simposio de Farmacia Clinica- Sao Paulo.csv"; ` +
        `filename*=UTF-8''${encodeURIComponent('Participantes - Simpósio de Farmácia Clínica- São Paulo.csv')}`,
    );
    expect(rows).toEqual([
      ['Nome', 'E-mail', 'CPF', 'Tipo', 'Pedido', 'Forma de pagamento', 'Situação', 'Entrada'],
      ["'=1+1", 'formula@exemplo.com.br', '', '', event.formula.order.orderNumber, 'Boleto', 'Válido', ''],
      ['Ana Cartão', 'ana@exemplo.com.br', '', '', event.ana.order.orderNumber, 'Cartão de crédito', 'Cancelado', ''],
      [
        'Bruno Convidado',
        'bruno@exemplo.com.br',
        '111.444.777-35',
        '',
        event.bruno.order.orderNumber,
        'Cortesia',
        'Válido',
        '',
      ],
      [
        'Conceição Araújo',
        'conceicao.araujo@exemplo.com.br',
        '529.982.247-25',
        '',
        event.conceicao.order.orderNumber,
        'PIX',
        'Válido',
        saoPaulo(event.checkedIn),
      ],
      ['Davi Antigo', 'davi@exemplo.com.br', '', '', event.older.order.orderNumber, '', 'Válido', ''],
    ]);
    const checkedIn = await exported({ eventId: event.eventId, checkedIn: 'true' });
    expect(checkedIn.rows.map((row) => row[0])).toEqual(['Nome', 'Conceição Araújo']);
  });

  test('sends the ticket e-mail again, once per request, with the ticket’s QR code; never for a cancelled ticket', async () => {
    const { conceicao } = event;
    for (let i = 0; i < 2; i++) {
      const response = await resend(conceicao.issued.ticketId);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 202,
        body: {
          message: 'O e-mail do ingresso será reenviado para conceicao.araujo@exemplo.com.br',
          ticketId: conceicao.issued.ticketId,
          holderEmail: 'conceicao.araujo@exemplo.com.br',
        },
      });
    }
    const { qrCodeData: _, ...issued } = conceicao.issued;
    const resent = await tickets.events('ticket.resent', conceicao.issued.ticketId);
    expect(resent).toEqual([
      { ...issued, qrCodeData: expect.stringMatching(/^data:image\/png;base64,/), resentBy: tickets.admin.id },
      { ...issued, qrCodeData: expect.stringMatching(/^data:image\/png;base64,/), resentBy: tickets.admin.id },
    ]);
    expect(tickets.logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'ticket resent',
        ticketId: conceicao.issued.ticketId,
        resentBy: tickets.admin.id,
      }),
    );

    const cancelled = await resend(event.ana.issued.ticketId);
    expect({ status: cancelled.status, body: await cancelled.json() }).toEqual({
      status: 409,
      body: { message: 'Este ingresso foi cancelado: o e-mail do ingresso não pode ser reenviado' },
    });
    expect(await tickets.events('ticket.resent', event.ana.issued.ticketId)).toEqual([]);
  });
});

test('a ticket whose holder deleted the account, an unknown one or a malformed id is not sent', async () => {
  const erased = await tickets.issue();
  await tickets.handled(await tickets.emit('user.deleted', { userId: erased.order.userId }));
  const answers = [];
  for (const id of [erased.issued.ticketId, randomUUID(), 'nao-e-um-id']) {
    const response = await resend(id);
    answers.push({ status: response.status, body: await response.json() });
  }
  expect(answers).toEqual([
    { status: 409, body: { message: 'O titular deste ingresso excluiu a conta: não há para quem reenviar o e-mail' } },
    { status: 404, body: { message: 'Ingresso não encontrado' } },
    { status: 400, body: { message: 'Identificador do ingresso inválido' } },
  ]);
  expect((await tickets.db('tickets').where({ id: erased.issued.ticketId }).first()).holder_email).toBe(
    erasedPerson(erased.order.userId).email,
  );
  expect(await tickets.events('ticket.resent')).not.toContainEqual(
    expect.objectContaining({ ticketId: erased.issued.ticketId }),
  );
});

test('pages through a large event, 50 tickets a page', async () => {
  const eventId = randomUUID();
  // Stored directly: a page's worth of tickets issued one by one would take the worker longer than a test may.
  const rows = Array.from({ length: 52 }, (_, i) =>
    toTicketRow({
      id: randomUUID(),
      orderId: randomUUID(),
      orderNumber: `EF-${String(i).padStart(6, '0')}`,
      eventId,
      userId: randomUUID(),
      holderName: `Participante ${String(i).padStart(2, '0')}`,
      holderEmail: `participante.${i}@exemplo.com.br`,
      paymentMethod: 'pix',
      qrText: `T1.participante-${i}`,
    }),
  );
  await keepEventCopy(tickets.db, eventId, {
    title: 'Congresso Lotado',
    date: new Date('2027-03-12T22:00:00.000Z'),
    location: 'São Paulo – SP',
  });
  await tickets.db('tickets').insert(rows);
  const first = await participants({ eventId });
  const second = await participants({ eventId, page: '2' });
  expect(first).toMatchObject({ page: 1, pageSize: 50, matching: 52, totalPages: 2 });
  expect(names(first)).toEqual(rows.slice(0, 50).map((row) => row.holder_name));
  expect(names(second)).toEqual(['Participante 50', 'Participante 51']);
  expect((await exported({ eventId })).rows).toHaveLength(53);
});

test('refuses a list without its event, or with filters it does not know, in pt-BR', async () => {
  const eventId = randomUUID();
  const cases: [Record<string, string>, string][] = [
    [{}, 'Informe o evento (eventId)'],
    [{ eventId: 'evento-1' }, 'Identificador do evento inválido'],
    [{ eventId, status: 'used' }, 'Situação inválida: use valid ou cancelled'],
    [{ eventId, checkedIn: 'sim' }, 'Filtro de entrada inválido: use true ou false'],
    [{ eventId, page: '0' }, 'Página inválida'],
    [{ eventId, q: 'x'.repeat(101) }, 'Busca longa demais'],
  ];
  for (const [query, message] of cases) {
    const response = await request('GET', `/api/admin/tickets?${new URLSearchParams(query)}`);
    expect({ query, status: response.status, body: await response.json() }).toEqual({
      query,
      status: 400,
      body: { message },
    });
  }
  const csv = await request('GET', '/api/admin/tickets/export.csv');
  expect({ status: csv.status, body: await csv.json() }).toEqual({
    status: 400,
    body: { message: 'Informe o evento (eventId)' },
  });
});

test('only administrators reach the participants, their export and the re-sending', async () => {
  const { issued } = await tickets.issue();
  const eventId = issued.eventId;
  const routes: [method: 'GET' | 'POST', path: string, allowed: number][] = [
    ['GET', `/api/admin/tickets?eventId=${eventId}`, 200],
    ['GET', `/api/admin/tickets/export.csv?eventId=${eventId}`, 200],
    ['POST', `/api/admin/tickets/${issued.ticketId}/resend`, 202],
  ];
  const callers: [name: string, token: string | null][] = [
    ['anonymous', null],
    ['buyer', tickets.userToken],
    ['door staff', tickets.doorStaffToken],
    ['courtesy manager', tickets.courtesyManagerToken],
    ['admin', tickets.admin.token],
  ];
  const answers = [];
  for (const [method, path, allowed] of routes)
    for (const [caller, token] of callers) {
      const response = await request(method, path, token);
      answers.push({ path, caller, status: response.status, allowed });
    }
  for (const answer of answers) {
    const expected = answer.caller === 'anonymous' ? 401 : answer.caller === 'admin' ? answer.allowed : 403;
    expect(answer).toEqual({ ...answer, status: expected });
  }
  // Only the administrator's request sent anything.
  expect(await tickets.events('ticket.resent', issued.ticketId)).toHaveLength(1);
});
