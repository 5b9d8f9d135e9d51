import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { Role } from '@ticketing/proto';
import { json, redemptionForm, startCourtesy, type Caller, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy();
});
afterAll(() => courtesy.stop());

const report = (linkId: string, query = '') =>
  courtesy.call('GET', `/api/courtesy-links/${linkId}/redemptions${query}`, { token: courtesy.admin.token });
const spreadsheet = (linkId: string) =>
  courtesy.call('GET', `/api/courtesy-links/${linkId}/redemptions.csv`, { token: courtesy.admin.token });

async function freeLink(ticketCount: number) {
  const event = await courtesy.createEvent({ maxAttendees: 200 });
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount, overridePrice: null }));
  return { event, link };
}

/** A guest redeems the link through the redemption page's call, with the form's fields. */
async function redeem(code: string, fields: Record<string, unknown>): Promise<Caller & { cpf: string }> {
  const guest = await courtesy.user();
  const form = redemptionForm(code, fields);
  const response = await courtesy.call('POST', '/api/courtesy/redeem', { token: guest.token, body: form });
  if (response.status !== 201) throw new Error(`not redeemed: ${await response.text()}`);
  return { ...guest, cpf: form.cpf };
}

/** Orders announces the paid order it made from a redemption or a promotional use, as it does. */
async function orderPaid(fields: { orderId: string; orderNumber: string; userId: string; linkId: string }) {
  const event = await courtesy.service.db('courtesy_links').where({ id: fields.linkId }).first();
  await courtesy.handled(
    await courtesy.publish('order.paid', {
      orderId: fields.orderId,
      orderNumber: fields.orderNumber,
      userId: fields.userId,
      eventId: event.event_id,
      amount: '0.00',
      paidAt: new Date().toISOString(),
      buyer: { name: 'Comprador', email: 'comprador@example.com' },
      event: { title: event.event_title, date: event.event_date.toISOString(), location: event.event_location },
      courtesyLinkId: fields.linkId,
    }),
  );
}

const masked = (cpf: string) => `***.${cpf.slice(4, 7)}.${cpf.slice(8, 11)}-**`;

describe('a free link redeemed by several guests', () => {
  let link: { id: string; code: string };
  let guests: (Caller & { cpf: string; name: string; email: string })[];
  const orderId = randomUUID();

  beforeAll(async () => {
    ({ link } = await freeLink(5));
    guests = [];
    for (const [name, email] of [
      ['José da Conceição', 'jose@example.com'],
      ['=1+1', 'formula@example.com'],
      ['Ana Lívia Araújo', 'ana@example.com'],
    ] as const) {
      guests.push({ ...(await redeem(link.code, { name, email, emailConfirm: email })), name, email });
    }
    await orderPaid({ orderId, orderNumber: 'CORT-000042', userId: guests[0]!.id, linkId: link.id });
  });

  test('the list shows who redeemed it, newest first, CPF masked, with the order once paid and the totals', async () => {
    const response = await report(link.id);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.link).toEqual({
      id: link.id,
      code: link.code,
      event: { title: expect.any(String) },
      promotional: false,
      isActive: true,
      redeemed: 3,
      max: 5,
    });
    expect(body).toMatchObject({ page: 1, totalPages: 1 });
    expect(body.redemptions).toEqual(
      [...guests].reverse().map((guest) => ({
        name: guest.name,
        email: guest.email,
        cpf: masked(guest.cpf),
        orderId: guest === guests[0] ? orderId : null,
        orderNumber: guest === guests[0] ? 'CORT-000042' : null,
        redeemedAt: expect.any(String),
      })),
    );
    const times = body.redemptions.map((row: { redeemedAt: string }) => Date.parse(row.redeemedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test('the spreadsheet has every row: UTF-8 with a byte order mark, accents intact, full CPF, formulas kept as text', async () => {
    // The first guest redeemed at a known moment: 15:05 UTC is 12:05 in São Paulo.
    await courtesy.service
      .db('courtesy_redemptions')
      .where({ link_id: link.id, user_id: guests[0]!.id })
      .update({ created_at: '2026-03-10T15:05:00Z' });
    const response = await spreadsheet(link.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="cortesia-${link.code}-resgates.csv"; filename*=UTF-8''cortesia-${link.code}-resgates.csv`,
    );
    const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows: string[][] = parse(text, { bom: true, delimiter: ';' });
    expect(rows[0]).toEqual(['Nome', 'E-mail', 'CPF', 'Pedido', 'Resgatado em']);
    expect(rows.slice(1)).toEqual([
      [
        'Ana Lívia Araújo',
        'ana@example.com',
        guests[2]!.cpf,
        '',
        expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
      ],
      ["'=1+1", 'formula@example.com', guests[1]!.cpf, '', expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)],
      ['José da Conceição', 'jose@example.com', guests[0]!.cpf, 'CORT-000042', '10/03/2026 12:05'],
    ]);
  });

  test('a deleted account shows only what erasure left of its guest', async () => {
    await courtesy.handled(await courtesy.publish('user.deleted', { userId: guests[2]!.id }));
    const erased = { name: 'Titular removido', email: `removido+${guests[2]!.id.slice(0, 8)}@anonimo.invalid` };
    const [newest] = (await json(await report(link.id))).redemptions;
    expect(newest).toEqual({ ...erased, cpf: null, orderId: null, orderNumber: null, redeemedAt: expect.any(String) });
    const rows: string[][] = parse(await (await spreadsheet(link.id)).text(), { bom: true, delimiter: ';' });
    expect(rows[1]!.slice(0, 4)).toEqual([erased.name, erased.email, '', '']);
    expect(rows.some((row) => row.includes(guests[2]!.cpf) || row.includes('Ana Lívia Araújo'))).toBe(false);
  });
});

test('the list comes 20 a page, newest first, with the number of pages', async () => {
  const { link } = await freeLink(25);
  const emails: string[] = [];
  for (let i = 0; i < 22; i++) {
    const email = `convidado${i}@example.com`;
    await redeem(link.code, { name: `Convidado ${i}`, email, emailConfirm: email });
    emails.push(email);
  }
  const page = async (n: number) => json(await report(link.id, `?page=${n}`));
  const [first, second, third] = [await page(1), await page(2), await page(3)];
  expect(first.link).toMatchObject({ redeemed: 22, max: 25 });
  expect([first.totalPages, first.page, second.page]).toEqual([2, 1, 2]);
  expect(first.redemptions.map((row: { email: string }) => row.email)).toEqual(emails.slice(2).reverse());
  expect(second.redemptions.map((row: { email: string }) => row.email)).toEqual(emails.slice(0, 2).reverse());
  expect(third.redemptions).toEqual([]);
  const bad = await report(link.id, '?page=0');
  expect({ status: bad.status, body: await json(bad) }).toEqual({ status: 400, body: { message: 'Página inválida' } });
  const rows: string[][] = parse(await (await spreadsheet(link.id)).text(), { bom: true, delimiter: ';' });
  expect(rows).toHaveLength(1 + 22);
});

test('a promotional link lists the orders that used it, and the order number once paid', async () => {
  const event = await courtesy.createEvent();
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 4, overridePrice: 80 }));
  const [pending, paid] = [randomUUID(), randomUUID()];
  for (const orderId of [pending, paid]) {
    const taken = await courtesy.call('PUT', `/internal/promo-uses/${orderId}`, {
      body: { code: link.code, eventId: event.id },
    });
    expect(taken.status).toBe(200);
  }
  await orderPaid({ orderId: paid, orderNumber: 'PED-000777', userId: randomUUID(), linkId: link.id });
  const body = await json(await report(link.id));
  expect(body.link).toMatchObject({ promotional: true, redeemed: 2, max: 4 });
  const nobody = { name: null, email: null, cpf: null, redeemedAt: expect.any(String) };
  expect(body.redemptions).toEqual([
    { ...nobody, orderId: paid, orderNumber: 'PED-000777' },
    { ...nobody, orderId: pending, orderNumber: null },
  ]);
  const rows: string[][] = parse(await (await spreadsheet(link.id)).text(), { bom: true, delimiter: ';' });
  expect(rows.slice(1).map((row) => row[3])).toEqual(['PED-000777', pending]);
});

test.each([
  ['an unknown link', 404, randomUUID(), 'Link de cortesia não encontrado'],
  ['a malformed id', 400, 'not-a-link', 'Link de cortesia inválido'],
])('%s answers %i, on the list and on the spreadsheet', async (_what, status, id, message) => {
  for (const response of [await report(id), await spreadsheet(id)]) {
    expect({ status: response.status, body: await json(response) }).toEqual({ status, body: { message } });
  }
});

test('only those who manage courtesy links see who redeemed them', async () => {
  const { link } = await freeLink(1);
  const as = async (roles: Role[]) => courtesy.issuer.sign({ id: randomUUID(), roles, name: 'Equipe' });
  const callers: [string, string | undefined, number][] = [
    ['anonymous', undefined, 401],
    ['buyer', (await courtesy.user()).token, 403],
    ['door staff', await as(['doorStaff']), 403],
    ['administrator without courtesies', await as(['admin']), 403],
    ['courtesy manager', await as(['courtesyManager']), 200],
    ['administrator managing courtesies', courtesy.admin.token, 200],
  ];
  const answers = [];
  for (const [who, token] of callers) {
    for (const path of ['redemptions', 'redemptions.csv']) {
      const response = await courtesy.call('GET', `/api/courtesy-links/${link.id}/${path}`, { token });
      const message = response.status === 200 ? undefined : (await json(response)).message;
      answers.push([who, response.status, message]);
    }
  }
  const expected = callers.flatMap(([who, , status]) => {
    const message =
      status === 401 ? expect.any(String) : status === 403 ? 'Acesso restrito a quem gerencia cortesias' : undefined;
    return [
      [who, status, message],
      [who, status, message],
    ];
  });
  expect(answers).toEqual(expected);
});
