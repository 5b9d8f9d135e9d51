import { makeCpf, readQrCode, waitFor } from '@ticketing/testkit';
import { orderItemMessages, scanMessages, type OrderItemView, type OrderView } from '@ticketing/proto';
import type { CaughtMessage } from '../../scripts/mail-catcher/store.ts';
import { adminEvent, orderOf, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;
const TITLE = 'Congresso de Farmacovigilância';

/** A congress selling 'Profissional' and 'Estudante' (a student shows a document at the door). */
async function congress() {
  const { eventId, adminToken } = await adminEvent(system, {
    title: TITLE,
    maxAttendees: 40,
    ticketTypes: [
      { name: 'Profissional', price: '390.00' },
      { name: 'Estudante', price: '190.00', requiresDocument: true },
    ],
  });
  const { body: event } = await system.call('GET', `/api/events/${eventId}`);
  const [professional, student] = event.ticketTypes as { id: string; name: string; price: string }[];
  return { eventId, adminToken, professional: professional!, student: student! };
}

const someone = (name: string) => ({
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}.${makeCpf().slice(0, 3)}@example.com.br`,
});

/** Three tickets of two types: the buyer's own, a colleague's, and a student's with CPF; paid in the sandbox. */
async function paidOrderOfThree(buyer: Buyer, types: Awaited<ReturnType<typeof congress>>) {
  const colleague = someone('Ana Souza Lima');
  const student = { ...someone('Caio Mendes Prado'), cpf: makeCpf() };
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: {
      eventId: types.eventId,
      paymentMethod: 'pix',
      items: [
        { ticketTypeId: types.professional.id },
        { ticketTypeId: types.professional.id, holder: colleague },
        { ticketTypeId: types.student.id, holder: student },
      ],
    },
  });
  expect(bought.status).toBe(201);
  const order = bought.body.order as OrderView;
  system.sandbox.confirm(order.asaasPaymentId!);
  const paid: OrderView = await waitFor(async () => {
    const listed = (await orderOf(system, buyer, order.id)) as OrderView | undefined;
    return listed?.status === 'paid' && listed.items.every((item) => item.qrCodeData) && listed;
  });
  return { order: paid, holders: [{ name: buyer.name, email: buyer.email }, colleague, student] };
}

/** The QR text of the ticket e-mail `mail` carries. */
async function qrTextOf(mail: CaughtMessage): Promise<string> {
  const attachment = mail.attachments.find((file) => file.filename.endsWith('.png'))!;
  const png = await fetch(`${system.catcher.httpUrl}/api/email/${mail.id}/attachment/${attachment.filename}`);
  return readQrCode(Buffer.from(await png.arrayBuffer()))!;
}

const qrTextOfItem = (item: OrderItemView) => readQrCode(Buffer.from(item.qrCodeData!.split(',')[1]!, 'base64'))!;

test('an order of three tickets of two types for three holders: a ticket e-mail each, each QR admitted once, one confirmation listing all', async () => {
  const types = await congress();
  const buyer = await verifiedBuyer(system);
  const { order, holders } = await paidOrderOfThree(buyer, types);
  expect(order.totalAmount).toBe('985.00');
  expect(order.items).toEqual([
    expect.objectContaining({ index: 0, typeName: 'Profissional', price: '390.00', holderName: buyer.name }),
    expect.objectContaining({ index: 1, typeName: 'Profissional', price: '390.00', holderName: holders[1]!.name }),
    expect.objectContaining({ index: 2, typeName: 'Estudante', price: '190.00', holderName: holders[2]!.name }),
  ]);

  for (const [index, holder] of holders.entries()) {
    const mail = await system.mailTo(holder.email, `Seu ingresso: ${TITLE}`);
    const qrText = await qrTextOf(mail);
    const scan = () =>
      system.call('POST', '/api/verify-ticket', { token: types.adminToken, body: { qrCodeData: qrText } });
    const first = await scan();
    expect(first.body).toMatchObject({
      success: true,
      code: 'valid',
      userName: holder.name,
      ticketType: { name: index === 2 ? 'Estudante' : 'Profissional', requiresDocument: index === 2 },
    });
    expect((await scan()).body).toMatchObject({ success: false, code: 'already_used' });
  }

  // The buyer's confirmation names every holder once; nobody else got a ticket of this order.
  const confirmation = await waitFor(() =>
    system.catcher
      .messages()
      .find(
        (mail) =>
          mail.to.includes(buyer.email) &&
          !mail.subject.startsWith('Seu ingresso') &&
          holders.every((holder) => mail.text?.includes(holder.name)),
      ),
  );
  expect(confirmation.text).toContain(order.orderNumber);
  const ticketMails = system.catcher.messages().filter((mail) => mail.subject === `Seu ingresso: ${TITLE}`);
  expect(ticketMails.flatMap((mail) => mail.to).sort()).toEqual(holders.map((holder) => holder.email).sort());
  await waitFor(async () =>
    ((await orderOf(system, buyer, order.id)) as OrderView).items.every((item) => item.qrCodeUsed),
  );
});

test('a holder change reissues the ticket to the new holder and the old QR answers outdated; a withdrawal then refunds and cancels all three', async () => {
  const types = await congress();
  const buyer = await verifiedBuyer(system);
  const { order } = await paidOrderOfThree(buyer, types);
  const before = qrTextOfItem(order.items[1]!);

  const newcomer = someone('Davi Rezende Costa');
  const changed = await system.call('PUT', `/api/orders/${order.id}/items/1/holder`, {
    token: buyer.token,
    body: newcomer,
  });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ message: orderItemMessages.holderChanged });
  expect(changed.body.order.items[1]).toMatchObject({ holderName: newcomer.name, holderEmail: newcomer.email });

  // The newcomer's e-mail carries the new QR; the one before is refused as outdated.
  const reissued = await qrTextOf(await system.mailTo(newcomer.email, `Seu ingresso: ${TITLE}`));
  expect(reissued).not.toBe(before);
  const old = await system.call('POST', '/api/verify-ticket', {
    token: types.adminToken,
    body: { qrCodeData: before },
  });
  expect(old.body).toMatchObject({ success: false, message: scanMessages.outdated });
  await waitFor(async () => {
    const listed = (await orderOf(system, buyer, order.id)) as OrderView;
    return listed.items[1]!.qrCodeData !== order.items[1]!.qrCodeData;
  });

  // Another buyer may not touch it.
  const stranger = await verifiedBuyer(system);
  const foreign = await system.call('PUT', `/api/orders/${order.id}/items/0/holder`, {
    token: stranger.token,
    body: someone('Eva Lima Torres'),
  });
  expect(foreign.status).toBe(404);

  const withdrawn = await system.call('POST', `/api/orders/${order.id}/withdraw`, { token: buyer.token });
  expect(withdrawn.status).toBe(202);
  const refunded = await waitFor(async () => {
    const listed = (await orderOf(system, buyer, order.id)) as OrderView;
    return listed.status === 'refunded' && listed.refund?.pending === false && listed;
  });
  expect(refunded.refund).toMatchObject({ reason: 'withdrawal', status: 'refunded' });
  expect(system.sandbox.payments.get(order.asaasPaymentId!)).toMatchObject({ status: 'REFUNDED' });
  const current = [qrTextOfItem(order.items[0]!), reissued, qrTextOfItem(order.items[2]!)];
  for (const qrText of current) {
    const { body } = await system.call('POST', '/api/verify-ticket', {
      token: types.adminToken,
      body: { qrCodeData: qrText },
    });
    expect(body).toMatchObject({ success: false, code: 'cancelled' });
  }
  await waitFor(async () => (await system.call('GET', `/api/events/${types.eventId}`)).body.remaining === 40);
});

test('lots turn by quantity under a race: of 8 buyers, 2 pay the first lot, 3 the second, 3 are told it sold out', async () => {
  const { eventId } = await adminEvent(system, {
    ticketTypes: [
      {
        name: 'Profissional',
        price: '150.00',
        lots: [
          { price: '100.00', quantity: 2 },
          { price: '150.00', quantity: 3 },
        ],
      },
    ],
  });
  const { body: event } = await system.call('GET', `/api/events/${eventId}`);
  expect(event.ticketTypes[0]).toMatchObject({ price: '100.00', currentLot: { name: '1º lote', remaining: 2 } });
  const ticketTypeId = event.ticketTypes[0].id as string;

  const buyers: Buyer[] = [];
  for (let i = 0; i < 8; i++) buyers.push(await verifiedBuyer(system));
  const answers = await Promise.all(
    buyers.map((buyer) =>
      system.call('POST', '/api/orders', {
        token: buyer.token,
        body: { eventId, paymentMethod: 'pix', items: [{ ticketTypeId }] },
      }),
    ),
  );
  const made = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.order as OrderView);
  const refused = answers.filter((answer) => answer.status === 409);
  expect(made.map((order) => order.totalAmount).sort()).toEqual(['105.00', '105.00', '155.00', '155.00', '155.00']);
  expect(made.map((order) => order.items[0]!.lotName).sort()).toEqual([
    '1º lote',
    '1º lote',
    '2º lote',
    '2º lote',
    '2º lote',
  ]);
  expect(refused).toHaveLength(3);
  for (const answer of refused) expect(answer.body.message).toMatch(/esgotado/);
  const { body: after } = await system.call('GET', `/api/events/${eventId}`);
  expect(after.ticketTypes[0]).toMatchObject({ remaining: 0, onSale: false });
});
