import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import QRCode from 'qrcode';
import { brand } from '@ticketing/proto';
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

test('a card order e-mails the payment link; PIX and boleto orders send nothing', async () => {
  const card = buyer();
  const pix = buyer();
  const order = (who: ReturnType<typeof buyer>, paymentMethod: 'credit_card' | 'pix') => ({
    orderId: randomUUID(),
    orderNumber: 'EF-004218',
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '395.00',
    paymentMethod,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    invoiceUrl: paymentMethod === 'credit_card' ? 'https://pagamento.example.com.br/i/8f3k2' : null,
    buyer: who,
    event,
  });
  const pixEvent = await setup.harness.publish('order.created', order(pix, 'pix'));
  await setup.harness.publish('order.created', order(card, 'credit_card'));
  const [message] = await waitFor(() => receivedBy(card.email).length === 1 && receivedBy(card.email));
  expect(message!.subject).toBe('Finalize o pagamento do seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain('https://pagamento.example.com.br/i/8f3k2');
  expect(message!.text).toContain('R$\u00a0395,00');
  await waitFor(() => setup.harness.mail.db('inbox').where({ event_id: pixEvent.id }).first());
  expect(receivedBy(pix.email)).toEqual([]);
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
