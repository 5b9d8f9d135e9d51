import { json, redemptionForm, startCourtesy, type Courtesy } from './support.ts';

let courtesy: Courtesy;
beforeAll(async () => {
  courtesy = await startCourtesy();
});
afterAll(() => courtesy.stop());

async function freeLink(ticketCount: number) {
  const event = await courtesy.createEvent({ maxAttendees: 200 });
  const link = await json(await courtesy.createLink({ eventId: event.id, ticketCount, overridePrice: null }));
  return { event, link };
}

const redeem = (token: string | undefined, body: unknown) =>
  courtesy.call('POST', '/api/courtesy/redeem', { token, body });

test('a guest redeems a free link: one use taken, the form kept, courtesy.redeemed written for orders', async () => {
  const { event, link } = await freeLink(3);
  const guest = await courtesy.user();
  const form = redemptionForm(link.code.toLowerCase(), {
    email: 'Maria@Example.com',
    emailConfirm: 'maria@example.com',
  });

  const response = await redeem(guest.token, form);
  expect(response.status).toBe(201);
  expect(await json(response)).toEqual({
    message: 'Cortesia resgatada com sucesso!',
    redemptionId: expect.any(String),
    event: { id: event.id, title: event.title },
  });

  const db = courtesy.service.db;
  expect(await db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 1 });
  const [attendee] = await db('courtesy_attendees');
  expect(attendee).toMatchObject({
    name: 'Maria Convidada',
    email: 'maria@example.com',
    cpf: form.cpf,
    phone: '(11) 98765-4321',
    address: 'Rua das Flores, 123 – São Paulo',
    partner_company: 'Farmacêutica Parceira',
    occupation: 'Gerente de qualidade',
    event_title: event.title,
  });
  expect(await courtesy.published('courtesy.redeemed')).toEqual([
    {
      redemptionId: expect.any(String),
      linkId: link.id,
      attendeeId: attendee.id,
      userId: guest.id,
      eventId: event.id,
      attendee: { name: 'Maria Convidada', email: 'maria@example.com', cpf: form.cpf },
      event: { title: event.title, date: event.date, location: event.location },
      ticketType: { id: event.ticketTypes[0]!.id, name: 'Ingresso', requiresDocument: false },
    },
  ]);
  const lookup = await json(await courtesy.call('GET', `/api/courtesy-links/${link.code}`));
  expect(lookup.remainingTickets).toBe(2);
});

test('the same user cannot redeem the same link twice', async () => {
  const { link } = await freeLink(5);
  const guest = await courtesy.user();
  expect((await redeem(guest.token, redemptionForm(link.code))).status).toBe(201);
  const again = await redeem(guest.token, redemptionForm(link.code));
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({ message: 'Você já resgatou esta cortesia.' });
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 1 });
});

test('unknown, exhausted and promotional codes are refused; anonymous callers must log in', async () => {
  const guest = await courtesy.user();
  const invalid = { message: 'Este código de cortesia não é válido ou já foi utilizado.' };
  const unknown = await redeem(guest.token, redemptionForm('CDPI99999ZZZ'));
  expect(unknown.status).toBe(404);
  expect(await json(unknown)).toEqual(invalid);

  const { link } = await freeLink(1);
  expect((await redeem((await courtesy.user()).token, redemptionForm(link.code))).status).toBe(201);
  const exhausted = await redeem(guest.token, redemptionForm(link.code));
  expect(exhausted.status).toBe(404);
  expect(await json(exhausted)).toEqual(invalid);

  const event = await courtesy.createEvent();
  const promo = await json(await courtesy.createLink({ eventId: event.id, ticketCount: 5, overridePrice: 90 }));
  const promotional = await redeem(guest.token, redemptionForm(promo.code));
  expect(promotional.status).toBe(409);
  expect(await json(promotional)).toEqual({
    message: 'Este código é promocional: use-o na compra do ingresso, na página do evento.',
  });

  expect((await redeem(undefined, redemptionForm(link.code))).status).toBe(401);
  const redeemed = await courtesy.published('courtesy.redeemed');
  expect(redeemed.filter((payload) => [link.id, promo.id].includes(payload.linkId))).toHaveLength(1);
});

test.each([
  [{ name: 'M' }, 'Nome deve ter pelo menos 2 caracteres'],
  [{ email: 'maria' }, 'Email inválido'],
  [{ emailConfirm: 'outra' }, 'Email inválido'],
  [{ emailConfirm: 'outra@example.com' }, 'Os emails não coincidem'],
  [{ cpf: '12345678900' }, 'CPF deve estar no formato 000.000.000-00'],
  [{ cpf: '111.111.111-11' }, 'CPF inválido'],
  [{ partnerCompany: 'A' }, 'Empresa parceira é obrigatória'],
  [{ partnerCompany: null }, 'Empresa parceira é obrigatória'],
  [{ occupation: ' ' }, 'Cargo é obrigatório'],
  [{ birthDate: '17/05/1990' }, 'Data deve estar no formato AAAA-MM-DD'],
  [{ birthDate: '1990-02-30' }, 'Data de nascimento inválida'],
  [{ address: 'Rua A' }, 'Endereço deve ter pelo menos 10 caracteres'],
  [{ phone: '11987654321' }, 'Telefone deve estar no formato (00) 00000-0000'],
  [{ code: '' }, 'Código inválido'],
])('a form with %j is a 400: %s, and no use is taken', async (fields, message) => {
  const { link } = await freeLink(1);
  const response = await redeem((await courtesy.user()).token, redemptionForm(link.code, fields));
  expect(response.status).toBe(400);
  expect(await json(response)).toEqual({ message });
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 0 });
});

test('40 guests at once on a link of 10: exactly 10 redeem it', async () => {
  const { link } = await freeLink(10);
  const guests = await Promise.all(Array.from({ length: 40 }, () => courtesy.user()));
  const answers = await Promise.all(guests.map((guest) => redeem(guest.token, redemptionForm(link.code))));
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(10);
  expect(statuses.filter((status) => status === 404)).toHaveLength(30);
  const db = courtesy.service.db;
  expect(await db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 10 });
  expect(await db('courtesy_redemptions').where({ link_id: link.id })).toHaveLength(10);
  const redeemed = await courtesy.published('courtesy.redeemed');
  expect(redeemed.filter((payload) => payload.linkId === link.id)).toHaveLength(10);
});

test('a link of 1 clicked twice at once by the same guest gives one ticket', async () => {
  const { link } = await freeLink(1);
  const guest = await courtesy.user();
  const answers = await Promise.all([1, 2].map(() => redeem(guest.token, redemptionForm(link.code))));
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, expect.any(Number)]);
  expect([404, 409]).toContain(answers.find((answer) => answer.status !== 201)!.status);
  const redeemed = await courtesy.published('courtesy.redeemed');
  expect(redeemed.filter((payload) => payload.linkId === link.id)).toHaveLength(1);
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 1 });
});

test('a guest with two uses of a link of 2 clicking at once still redeems once', async () => {
  const { link } = await freeLink(2);
  const guest = await courtesy.user();
  const answers = await Promise.all(Array.from({ length: 5 }, () => redeem(guest.token, redemptionForm(link.code))));
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(4);
  expect(await courtesy.service.db('courtesy_links').where({ id: link.id }).first()).toMatchObject({ used_count: 1 });
});
