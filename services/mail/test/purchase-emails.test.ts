import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import QRCode from 'qrcode';
import { readQrCode } from '@ticketing/testkit';
import { brand, type EventPayload } from '@ticketing/proto';
import { PUBLIC_URL, waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

const buyer = () => ({ name: 'Rafael Moreira Lima', email: `${randomUUID()}@example.com.br` });
const event = { title: 'Simpósio de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const receivedBy = (address: string) => setup.catcher.messages().filter((message) => message.to.includes(address));

test('an issued ticket e-mails its QR code, shown inline and attached, byte for byte, and the event for the agenda', async () => {
  const to = buyer();
  const eventId = randomUUID();
  const png = await QRCode.toBuffer('T1.exemplo-de-ingresso-assinado', { errorCorrectionLevel: 'M', margin: 2 });
  await setup.harness.publish('ticket.issued', {
    ticketId: randomUUID(),
    orderId: randomUUID(),
    orderNumber: 'EF-004217',
    userId: randomUUID(),
    eventId,
    qrText: 'T1.exemplo-de-ingresso-assinado',
    qrCodeData: `data:image/png;base64,${png.toString('base64')}`,
    buyer: to,
    event,
  });
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain('Data: sexta-feira, 12 de março de 2027');
  expect(message!.text).toContain('Horário: 19:00');
  expect(message!.text).toContain('abra o arquivo simposio-de-farmacovigilancia.ics, também anexado');
  expect(message!.html).toContain('src="cid:ingresso-qr"');
  const [inline, attached, calendarFile] = message!.attachments;
  expect([inline, attached].map((a) => [a!.filename, a!.contentType, a!.size])).toEqual([
    ['ingresso-EF-004217.png', 'image/png', png.length],
    ['ingresso-EF-004217.png', 'image/png', png.length],
  ]);
  const file = await fetch(`${setup.catcher.httpUrl}/api/email/${message!.id}/attachment/ingresso-EF-004217.png`);
  expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);

  expect(message!.attachments).toHaveLength(3);
  expect([calendarFile!.filename, calendarFile!.contentType]).toEqual([
    'simposio-de-farmacovigilancia.ics',
    'text/calendar',
  ]);
  const calendar = new ICAL.Component(ICAL.parse(calendarFile!.content.toString('utf8')));
  expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const entry = new ICAL.Event(vevent);
  expect(entry.summary).toBe('Simpósio de Farmacovigilância');
  expect(entry.location).toBe('São Paulo — SP');
  expect(vevent.getFirstPropertyValue('url')).toBe(`${PUBLIC_URL}/event/${eventId}`);
  expect(entry.uid).toBe(`${eventId}@ingressos.example.com.br`);
  // 22:00 UTC is 19:00 in São Paulo, UTC−03:00.
  expect(entry.startDate.toString()).toBe('2027-03-12T19:00:00');
  expect(entry.startDate.zone!.tzid).toBe('America/Sao_Paulo');
  expect(entry.startDate.utcOffset()).toBe(-3 * 3600);
  expect(entry.startDate.toJSDate().toISOString()).toBe(event.date);
});

/** A new order waiting for payment, as orders announces it: how to pay it depends on the method. */
const created = (to: ReturnType<typeof buyer>, pay: Partial<EventPayload<'order.created'>>) =>
  setup.harness.publish('order.created', {
    orderId: randomUUID(),
    orderNumber: 'EF-004218',
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '395.00',
    paymentMethod: 'credit_card',
    expiresAt: '2027-03-01T17:32:00.000Z',
    invoiceUrl: 'https://pagamento.example.com.br/i/8f3k2',
    pixPayload: null,
    boletoUrl: null,
    boletoLine: null,
    buyer: to,
    event,
    ...pay,
  });

const PIX_CODE =
  '00020101021226820014br.gov.bcb.pix2560pix.example.com.br/qr/v2/cobv/9d36b84f-c70b-478f-b95c-12729b90ca255204000053039865406395.005802BR5925EDUCACAO FARMA LTDA6009SAO PAULO62070503***6304A1B2';

test('a card order e-mails the payment link', async () => {
  const to = buyer();
  await created(to, {});
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Finalize o pagamento do seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain('https://pagamento.example.com.br/i/8f3k2');
  expect(message!.text).toContain('R$\u00a0395,00');
});

test('a PIX order e-mails the copy-paste code and, inline, its QR code, which reads back as the same code', async () => {
  const to = buyer();
  const sent = await created(to, { paymentMethod: 'pix', pixPayload: PIX_CODE });
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Finalize o pagamento do seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain(`escolha pagar com PIX copia e cola e cole este código:\n\n${PIX_CODE}\n`);
  expect(message!.text).toContain('R$\u00a0395,00 por PIX');
  // 17:32 UTC is 14:32 in Brasília.
  expect(message!.text).toContain(
    'O código PIX vale até as 14:32 (horário de Brasília) de segunda-feira, 1 de março de 2027.',
  );
  expect(message!.text).toContain(`em "Meus Ingressos": ${PUBLIC_URL}/profile`);
  expect(message!.html).toContain(PIX_CODE);
  expect(message!.html).toContain('src="cid:pix-qr"');
  expect(message!.html).toContain(`href="${PUBLIC_URL}/profile"`);
  const [qr] = message!.attachments;
  expect(message!.attachments).toHaveLength(1);
  expect([qr!.filename, qr!.contentType]).toEqual(['pix-EF-004218.png', 'image/png']);
  expect(readQrCode(qr!.content)).toBe(PIX_CODE);
  await setup.harness.rowFor(sent.id, 'pix-payment');
});

test('a boleto order e-mails the digitable line and the link to the PDF, with the due date', async () => {
  const to = buyer();
  const line = '23790001246004123456789012345678912340000039500';
  const sent = await created(to, {
    paymentMethod: 'boleto',
    // The last second of the due day in São Paulo.
    expiresAt: '2027-03-10T02:59:59.000Z',
    boletoUrl: 'https://pagamento.example.com.br/b/pdf/8f3k2',
    boletoLine: line,
  });
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Finalize o pagamento do seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain(`Pague pelo app ou site do seu banco com a linha digitável:\n\n${line}\n`);
  expect(message!.text).toContain('https://pagamento.example.com.br/b/pdf/8f3k2');
  expect(message!.text).toContain('O boleto vence em terça-feira, 9 de março de 2027.');
  expect(message!.html).toContain(line);
  expect(message!.html).toMatch(
    /href="https:\/\/pagamento\.example\.com\.br\/b\/pdf\/8f3k2"[^>]*>Baixar boleto \(PDF\)</,
  );
  expect(message!.attachments).toEqual([]);
  await setup.harness.rowFor(sent.id, 'boleto-payment');
});

test('an order announced without how to pay it (made before the event carried it) sends nothing', async () => {
  const to = buyer();
  const sent = await created(to, { paymentMethod: 'pix', pixPayload: undefined });
  await waitFor(() => setup.harness.mail.db('inbox').where({ event_id: sent.id }).first());
  expect(await setup.harness.rows({ dedupe_key: `${sent.id}:pix-payment` })).toEqual([]);
  expect(receivedBy(to.email)).toEqual([]);
});

const refunded = (to: ReturnType<typeof buyer>, reason: 'late_payment' | 'refund' | 'chargeback') =>
  setup.harness.publish('order.refunded', {
    orderId: randomUUID(),
    orderNumber: 'EF-004219',
    userId: randomUUID(),
    eventId: randomUUID(),
    reason,
    amount: '155.00',
    buyer: to,
    event,
  });

test('a refund after a late payment tells the buyer why and how much', async () => {
  const to = buyer();
  const sent = await refunded(to, 'late_payment');
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Seu pagamento foi estornado');
  expect(message!.text).toContain('as vagas do evento já estavam esgotadas');
  expect(message!.text).toContain('R$\u00a0155,00');
  expect((await setup.harness.rows({ dedupe_key: `${sent.id}:payment-refunded` })).map((row) => row.template)).toEqual([
    'payment-refunded',
  ]);
});

test('a refunded paid order tells the buyer the money went back and the ticket no longer admits', async () => {
  const to = buyer();
  const sent = await refunded(to, 'refund');
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Seu pedido foi reembolsado: Simpósio de Farmacovigilância');
  expect(message!.text).toContain(
    'O pedido EF-004219 (Simpósio de Farmacovigilância) foi reembolsado: o valor de R$\u00a0155,00 foi estornado para a mesma forma de pagamento.',
  );
  expect(message!.text).toContain('O ingresso deste pedido foi cancelado e não dá mais acesso ao evento.');
  expect(message!.text).not.toContain('esgotadas');
  expect(message!.html).toContain('Pedido reembolsado');
  await setup.harness.rowFor(sent.id, 'order-refunded');
});

test('a disputed card payment tells the buyer the order and ticket are cancelled and whom to contact', async () => {
  const to = buyer();
  const sent = await refunded(to, 'chargeback');
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Pedido cancelado por contestação do pagamento: Simpósio de Farmacovigilância');
  expect(message!.text).toContain(
    'A operadora do cartão nos informou que o pagamento do pedido EF-004219 (Simpósio de Farmacovigilância), no valor de R$\u00a0155,00, foi contestado.',
  );
  expect(message!.text).toContain('o ingresso dele não dá mais acesso ao evento');
  expect(message!.text).toContain(`Se você não reconhece essa contestação, fale com a gente: ${brand.supportEmail}`);
  await setup.harness.rowFor(sent.id, 'order-chargeback');
});

test('a withdrawal refused because the door admitted the ticket first tells the buyer when it was used; a void ticket sends nothing yet', async () => {
  const to = buyer();
  const userId = randomUUID();
  const decision = (outcome: 'cancelled' | 'admitted', usedAt: string | null) => ({
    orderId: randomUUID(),
    orderNumber: 'EF-004230',
    userId,
    eventId: randomUUID(),
    buyer: to,
    event,
    ticketId: randomUUID(),
    outcome,
    usedAt,
  });
  // Same buyer, so both go the same way on the bus, in order: the void ticket's (its refund e-mail follows
  // order.refunded) is handled before the refusal.
  await setup.harness.publish('ticket.withdrawal-decided', decision('cancelled', null));
  const sent = await setup.harness.publish(
    'ticket.withdrawal-decided',
    decision('admitted', '2027-03-12T21:15:00.000Z'),
  );
  await setup.harness.rowFor(sent.id, 'withdrawal-refused');
  const [message, ...others] = await waitFor(() => receivedBy(to.email).length > 0 && receivedBy(to.email));
  expect(others).toEqual([]);
  expect(message!.subject).toBe('Não foi possível concluir sua desistência: Simpósio de Farmacovigilância');
  expect(message!.text).toContain(
    'Recebemos seu pedido de desistência do pedido EF-004230 (Simpósio de Farmacovigilância), mas o ingresso já tinha sido usado na entrada do evento em sexta-feira, 12 de março de 2027, às 18:15 (horário de Brasília).',
  );
  expect(message!.text).toContain('o pedido continua confirmado e nenhum valor foi estornado');
});
