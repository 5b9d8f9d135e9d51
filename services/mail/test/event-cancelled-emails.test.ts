import { randomUUID } from 'node:crypto';
import { brand } from '@ticketing/proto';
import { waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

const holder = () => ({ name: 'Rafael Moreira Lima', email: `${randomUUID()}@example.com.br` });
const event = { title: 'Simpósio de Farmacovigilância', date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const receivedBy = (address: string) => setup.catcher.messages().filter((message) => message.to.includes(address));

/** order.refunded as orders writes it for an order of an event its organizers cancelled. */
const cancelled = (to: ReturnType<typeof holder>, amount: string) =>
  setup.harness.publish('order.refunded', {
    orderId: randomUUID(),
    orderNumber: 'EF-004230',
    userId: randomUUID(),
    eventId: randomUUID(),
    reason: 'event_cancelled',
    amount,
    buyer: to,
    event,
  });

test('a paid order of a cancelled event tells the buyer which event, that the ticket is void and the money goes back', async () => {
  const to = holder();
  const sent = await cancelled(to, '155.00');
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Evento cancelado: Simpósio de Farmacovigilância');
  // 22:00 UTC is 19:00 in São Paulo.
  expect(message!.text).toContain(
    'O evento Simpósio de Farmacovigilância, marcado para sexta-feira, 12 de março de 2027, às 19:00, em São Paulo — SP, foi cancelado pelos organizadores.',
  );
  expect(message!.text).toContain('O ingresso do pedido EF-004230 foi cancelado e não dá mais acesso ao evento.');
  expect(message!.text).toContain(
    'O valor de R$\u00a0155,00 será estornado para a mesma forma de pagamento da compra.',
  );
  expect(message!.text).toContain(brand.supportEmail);
  expect(message!.html).toContain('Evento cancelado');
  expect(message!.html).toContain('sexta-feira, 12 de março de 2027');
  expect(message!.html).toContain('R$\u00a0155,00');
  expect((await setup.harness.rows({ dedupe_key: `${sent.id}:event-cancelled` })).map((row) => row.template)).toEqual([
    'event-cancelled',
  ]);
});

test('a courtesy of a cancelled event tells the holder the ticket is void, with no refund to speak of', async () => {
  const to = holder();
  await cancelled(to, '0.00');
  const [message] = await waitFor(() => receivedBy(to.email).length === 1 && receivedBy(to.email));
  expect(message!.subject).toBe('Evento cancelado: Simpósio de Farmacovigilância');
  expect(message!.text).toContain('foi cancelado pelos organizadores');
  expect(message!.text).toContain('O ingresso do pedido EF-004230 foi cancelado e não dá mais acesso ao evento.');
  expect(message!.text).not.toMatch(/estornad|R\$/);
  expect(message!.html).not.toMatch(/estorn|R\$/);
});
