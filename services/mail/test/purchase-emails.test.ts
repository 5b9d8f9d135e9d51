import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

const buyer = () => ({ name: 'Rafael Moreira Lima', email: `${randomUUID()}@example.com.br` });
const event = { title: 'Simpósio de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const receivedBy = (address: string) => setup.catcher.messages().filter((message) => message.to.includes(address));

test('an issued ticket e-mails its QR code, shown inline and attached, byte for byte', async () => {
  const to = buyer();
  const png = await QRCode.toBuffer('T1.exemplo-de-ingresso-assinado', { errorCorrectionLevel: 'M', margin: 2 });
  await setup.harness.publish('ticket.issued', {
    ticketId: randomUUID(),
    orderId: randomUUID(),
    orderNumber: 'EF-004217',
    userId: randomUUID(),
    eventId: randomUUID(),
    qrText: 'T1.exemplo-de-ingresso-assinado',
    qrCodeData: `data:image/png;base64,${png.toString('base64')}`,
    buyer: to,
    event,
  });
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Seu ingresso: Simpósio de Farmacovigilância');
  expect(message!.text).toContain('Data: sexta-feira, 12 de março de 2027');
  expect(message!.text).toContain('Horário: 19:00');
  expect(message!.html).toContain('src="cid:ingresso-qr"');
  expect(message!.attachments.map((a) => [a.filename, a.contentType, a.size])).toEqual([
    ['ingresso-EF-004217.png', 'image/png', png.length],
    ['ingresso-EF-004217.png', 'image/png', png.length],
  ]);
  const file = await fetch(`${setup.catcher.httpUrl}/api/email/${message!.id}/attachment/ingresso-EF-004217.png`);
  expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
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

test('a refund after a late payment tells the buyer why and how much', async () => {
  const to = buyer();
  await setup.harness.publish('order.refunded', {
    orderId: randomUUID(),
    orderNumber: 'EF-004219',
    userId: randomUUID(),
    amount: '155.00',
    buyer: to,
    event,
  });
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Seu pagamento foi estornado');
  expect(message!.text).toContain('as vagas do evento já estavam esgotadas');
  expect(message!.text).toContain('R$\u00a0155,00');
});
