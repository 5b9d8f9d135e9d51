import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import QRCode from 'qrcode';
import { readQrCode } from '@ticketing/testkit';
import { QR_FORMAT, type EventPayload } from '@ticketing/proto';
import { waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

type Item = NonNullable<EventPayload<'order.paid'>['items']>[number];

const TITLE = 'Congresso de Farmacovigilância';
const event = { title: TITLE, date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const PROFESSIONAL = { ticketTypeId: randomUUID(), typeName: 'Profissional', lotName: null, price: '390.00' };
const STUDENT = { ticketTypeId: randomUUID(), typeName: 'Estudante', lotName: '1º lote', price: '190.00' };

const address = (name: string) => `${name.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com.br`;
const receivedBy = (email: string) => setup.catcher.messages().filter((message) => message.to.includes(email));

/** A ticket's QR text as tickets signs it (format, ticket, event, version, key id, Ed25519 signature). */
const { privateKey } = generateKeyPairSync('ed25519');
function qrText(ticketId: string, eventId: string, version: number): string {
  const bytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');
  const payload = Buffer.concat([bytes(ticketId), bytes(eventId), Buffer.of(version)]).toString('base64url');
  const signed = `${QR_FORMAT}.${payload}.kidteste`;
  return `${signed}.${sign(null, Buffer.from(signed), privateKey).toString('base64url')}`;
}

/** An order of three tickets: the buyer's own, a colleague's, and a student's with CPF. */
function orderOfThree() {
  const buyer = { name: 'Marina Queiroz', email: address('marina') };
  const items: Item[] = [
    { index: 0, ...PROFESSIONAL, requiresDocument: false, holder: { ...buyer, cpf: null } },
    {
      index: 1,
      ...PROFESSIONAL,
      requiresDocument: false,
      holder: { name: 'Ana Souza Lima', email: address('ana'), cpf: null },
    },
    {
      index: 2,
      ...STUDENT,
      requiresDocument: true,
      holder: { name: 'Caio Mendes Prado', email: address('caio'), cpf: '529.982.247-25' },
    },
  ];
  const paid: EventPayload<'order.paid'> = {
    orderId: randomUUID(),
    orderNumber: `EF-${Math.floor(Math.random() * 1e6)}`,
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '970.00',
    paidAt: new Date().toISOString(),
    buyer,
    event,
    courtesyLinkId: null,
    paymentMethod: 'pix',
    items,
  };
  return paid;
}

/** The ticket.issued tickets sends for a line of a paid order (`version` above 1: issued again). */
async function ticketIssued(order: EventPayload<'order.paid'>, item: Item, ticketId = randomUUID(), version = 1) {
  const text = qrText(ticketId, order.eventId, version);
  const png = await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 2 });
  const payload: EventPayload<'ticket.issued'> = {
    ticketId,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    itemIndex: item.index,
    qrText: text,
    qrCodeData: `data:image/png;base64,${png.toString('base64')}`,
    buyer: order.buyer,
    holder: item.holder,
    ticketType: { id: item.ticketTypeId, name: item.typeName, requiresDocument: item.requiresDocument },
    event,
  };
  return payload;
}

/** The QR text the PNG attached to a message carries. */
async function attachedQr(message: { id: string; attachments: { filename: string }[] }): Promise<string | undefined> {
  const file = message.attachments.find((attachment) => attachment.filename.endsWith('.png'))!;
  const png = await fetch(`${setup.catcher.httpUrl}/api/email/${message.id}/attachment/${file.filename}`);
  return readQrCode(Buffer.from(await png.arrayBuffer()));
}

test('an order of three tickets: each holder gets their ticket, the buyer one confirmation listing all three', async () => {
  const order = orderOfThree();
  const issued = await Promise.all(order.items!.map((item) => ticketIssued(order, item)));
  await setup.harness.publish('order.paid', order);
  for (const payload of issued) await setup.harness.publish('ticket.issued', payload);

  const [buyer, colleague, student] = order.items!.map((item) => item.holder);
  const ticketOf = (email: string) =>
    waitFor(() => receivedBy(email).find((message) => message.subject === `Seu ingresso: ${TITLE}`));
  const [own, colleagues, students] = await Promise.all([buyer, colleague, student].map((h) => ticketOf(h!.email)));
  expect(await Promise.all([own, colleagues, students].map((message) => attachedQr(message!)))).toEqual(
    issued.map((payload) => payload.qrText),
  );

  expect(own!.text).toMatch(/^Olá, Marina!\n\nSeu ingresso está confirmado\.\n/);
  expect(own!.text).toContain('Tipo: Profissional');
  expect(own!.text).not.toContain('comprou este ingresso');
  expect(colleagues!.text).toMatch(
    /^Olá, Ana!\n\nSeu ingresso está confirmado\. Marina Queiroz comprou este ingresso para você\.\n/,
  );
  expect(colleagues!.text).toContain('Tipo: Profissional');
  expect(students!.text).toMatch(/^Olá, Caio!/);
  expect(students!.text).toContain('Tipo: Estudante');
  expect(students!.text).toContain('Leve um documento com foto');
  expect(students!.html).toContain('Estudante');

  const confirmation = await waitFor(() =>
    receivedBy(buyer!.email).find((message) => message.subject === `Pedido confirmado: ${TITLE}`),
  );
  expect(confirmation.text).toContain(`O pedido ${order.orderNumber} para ${TITLE}`);
  expect(confirmation.text).toContain(
    [
      '1. Profissional — Marina Queiroz — R$\u00a0390,00',
      '2. Profissional — Ana Souza Lima — R$\u00a0390,00',
      '3. Estudante — Caio Mendes Prado — R$\u00a0190,00',
    ].join('\n'),
  );
  expect(confirmation.text).toContain('Total: R$\u00a0970,00');

  // One ticket e-mail per holder, one confirmation, nothing else of this order.
  const ofOrder = setup.catcher
    .messages()
    .filter((message) => [buyer, colleague, student].some((holder) => message.to.includes(holder!.email)));
  expect(ofOrder.map((message) => [message.to, message.subject]).sort()).toEqual(
    [
      [[buyer!.email], `Pedido confirmado: ${TITLE}`],
      [[buyer!.email], `Seu ingresso: ${TITLE}`],
      [[colleague!.email], `Seu ingresso: ${TITLE}`],
      [[student!.email], `Seu ingresso: ${TITLE}`],
    ].sort(),
  );
});

test('a ticket for oneself alone gets no confirmation; one for someone else does', async () => {
  const own = orderOfThree();
  own.items = own.items!.slice(0, 1);
  const ownTicket = await ticketIssued(own, own.items[0]!);
  const paid = await setup.harness.publish('order.paid', own);
  await setup.harness.publish('ticket.issued', ownTicket);
  await waitFor(() => receivedBy(own.buyer.email).length === 1);
  // order.paid was handled (its inbox row committed) and queued nothing.
  await waitFor(async () => (await setup.harness.mail.db('inbox').where({ event_id: paid.id })).length === 1);
  expect(await setup.harness.rows({ template: 'order-confirmed', order_id: own.orderId })).toEqual([]);

  const gift = orderOfThree();
  gift.items = gift.items!.slice(1, 2).map((item) => ({ ...item, index: 0 }));
  await setup.harness.publish('order.paid', gift);
  const confirmation = await waitFor(() => receivedBy(gift.buyer.email)[0]);
  expect(confirmation.subject).toBe(`Pedido confirmado: ${TITLE}`);
  expect(confirmation.text).toContain('1. Profissional — Ana Souza Lima — R$\u00a0390,00');
});

test('a ticket issued again goes to its new holder, saying the QR code before no longer works', async () => {
  const order = orderOfThree();
  const newcomer = { name: 'Davi Rezende Costa', email: address('davi'), cpf: null };
  const reissued = await ticketIssued(order, { ...order.items![1]!, holder: newcomer }, randomUUID(), 2);
  await setup.harness.publish('ticket.issued', reissued);

  const [message] = await waitFor(() => receivedBy(newcomer.email).length === 1 && receivedBy(newcomer.email));
  expect(message!.subject).toBe(`Seu ingresso: ${TITLE}`);
  expect(message!.text).toMatch(
    /^Olá, Davi!\n\nSeu ingresso foi emitido novamente\. Marina Queiroz comprou este ingresso para você\. O QR Code enviado antes não vale mais: use somente o deste e-mail\.\n/,
  );
  expect(message!.html).toContain('Seu ingresso foi emitido novamente');
  expect(await attachedQr(message!)).toBe(reissued.qrText);
});

test('the how-to-pay e-mail of an order of several tickets lists them', async () => {
  const order = orderOfThree();
  await setup.harness.publish('order.created', {
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    amount: order.amount,
    paymentMethod: 'boleto',
    expiresAt: '2027-03-01T17:32:00.000Z',
    invoiceUrl: null,
    pixPayload: null,
    boletoUrl: 'https://pagamento.example.com.br/b/8f3k2',
    boletoLine: '23790001246004123456789012345678912340000097000',
    buyer: order.buyer,
    event,
    items: order.items,
  });
  const [message] = await waitFor(() => receivedBy(order.buyer.email).length === 1 && receivedBy(order.buyer.email));
  expect(message!.text).toContain(
    [
      'Ingressos do pedido:',
      '- Profissional — Marina Queiroz — R$\u00a0390,00',
      '- Profissional — Ana Souza Lima — R$\u00a0390,00',
      '- Estudante — Caio Mendes Prado — R$\u00a0190,00',
    ].join('\n'),
  );
  expect(message!.html).toContain('Ingresso 3');
  expect(message!.html).toContain('R$\u00a0970,00');
});
