import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

test('a ticket sent again by an administrator is the same ticket e-mail, a second time', async () => {
  const holder = { name: 'Conceição Araújo', email: `${randomUUID()}@example.com.br` };
  const png = await QRCode.toBuffer('T1.ingresso-reenviado', { errorCorrectionLevel: 'M', margin: 2 });
  const ticket = {
    ticketId: randomUUID(),
    orderId: randomUUID(),
    orderNumber: 'EF-004300',
    userId: randomUUID(),
    eventId: randomUUID(),
    qrText: 'T1.ingresso-reenviado',
    qrCodeData: `data:image/png;base64,${png.toString('base64')}`,
    buyer: holder,
    event: { title: 'Simpósio de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' },
  };
  const issued = await setup.harness.publish('ticket.issued', ticket);
  const resent = await setup.harness.publish('ticket.resent', { ...ticket, resentBy: randomUUID() });

  const received = () => setup.catcher.messages().filter((message) => message.to.includes(holder.email));
  const [first, second] = await waitFor(() => received().length === 2 && received());
  for (const message of [first!, second!]) {
    expect(message.subject).toBe('Seu ingresso: Simpósio de Farmacovigilância');
    expect(message.text).toContain('Olá, Conceição!');
    expect(message.text).toContain('Pedido: EF-004300');
    expect(message.attachments.map((file) => [file.filename, file.size])).toContainEqual([
      'ingresso-EF-004300.png',
      png.length,
    ]);
  }
  expect(second!.text).toBe(first!.text);
  // One e-mail per event: the re-sending is its own e-mail, not a duplicate of the first.
  const rows = await setup.harness.rows({ to: holder.email });
  // The two events are handled side by side, so the rows come in either order.
  expect(rows.map((row) => `${row.dedupe_key} ${row.template}`).sort()).toEqual(
    [`${issued.id}:ticket ticket`, `${resent.id}:ticket ticket`].sort(),
  );
});
