import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { useMailAndCatcher, waitFor } from './support.ts';

const setup = useMailAndCatcher();

/** What the mail service announced, oldest first. */
const announced = async (type: string) =>
  (await setup.harness.mail.db('outbox').where({ topic: type }).orderBy('seq')).map(
    (row: { key: string; envelope: { payload: Record<string, unknown> } }) => ({
      key: row.key,
      ...row.envelope.payload,
    }),
  );

test('an e-mail about an order is announced once it is sent (mail.sent); one about an account is not', async () => {
  const holder = { name: 'Conceição Araújo', email: `${randomUUID()}@example.com.br` };
  const png = await QRCode.toBuffer('T1.ingresso', { errorCorrectionLevel: 'M', margin: 2 });
  const orderId = randomUUID();
  const issued = await setup.harness.publish('ticket.issued', {
    ticketId: randomUUID(),
    orderId,
    orderNumber: 'EF-004301',
    userId: randomUUID(),
    eventId: randomUUID(),
    qrText: 'T1.ingresso',
    qrCodeData: `data:image/png;base64,${png.toString('base64')}`,
    buyer: holder,
    event: { title: 'Simpósio de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' },
  });
  const code = await setup.harness.publish('user.verification-code-issued', {
    userId: randomUUID(),
    name: holder.name,
    email: holder.email,
    code: '483920',
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  });
  const ticketRow = await setup.harness.rowFor(issued.id, 'ticket');
  await setup.harness.rowFor(code.id, 'verification-code');
  await waitFor(() => setup.catcher.messages().filter((message) => message.to.includes(holder.email)).length === 2);

  expect(ticketRow.order_id).toBe(orderId);
  expect(await announced('mail.sent')).toEqual([
    {
      key: orderId,
      emailId: ticketRow.id,
      orderId,
      template: 'ticket',
      subject: 'Seu ingresso: Simpósio de Farmacovigilância',
      sentAt: ticketRow.processed_at!.toISOString(),
    },
  ]);
});
