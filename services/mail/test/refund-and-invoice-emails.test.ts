import { randomUUID } from 'node:crypto';
import type { EventPayload } from '@ticketing/proto';
import { waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

const TITLE = 'Simpósio de Farmacovigilância';
const event = { title: TITLE, date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const BANK_DETAILS_URL = 'https://pagamento.example.com.br/estorno/dados-bancarios/7f2c';

const address = (name: string) => `${name}.${randomUUID().slice(0, 8)}@example.com.br`;
const receivedBy = (email: string) => setup.catcher.messages().filter((message) => message.to.includes(email));
const oneFor = async (email: string) => (await waitFor(() => receivedBy(email).length === 1 && receivedBy(email)))[0]!;
const inboxHas = (eventId: string) =>
  waitFor(() => setup.harness.mail.db('inbox').where({ event_id: eventId }).first());

const refunded = (
  reason: EventPayload<'order.refunded'>['reason'],
  bankDetailsUrl?: string | null,
): EventPayload<'order.refunded'> => ({
  orderId: randomUUID(),
  orderNumber: 'EF-004219',
  userId: randomUUID(),
  eventId: randomUUID(),
  reason,
  amount: '155.00',
  buyer: { name: 'Rafael Moreira Lima', email: address('rafael') },
  event,
  bankDetailsUrl,
});

describe("a paid boleto's refund", () => {
  test('asks the buyer for their bank details, with a button to the page, instead of the same way of payment', async () => {
    const payload = refunded('refund', BANK_DETAILS_URL);
    const sent = await setup.harness.publish('order.refunded', payload);
    const message = await oneFor(payload.buyer.email);
    expect(message.subject).toBe(`Seu pedido foi reembolsado: ${TITLE}`);
    expect(message.text).toContain(
      `O pedido EF-004219 (${TITLE}) foi reembolsado: o valor de R$\u00a0155,00 será transferido para a conta bancária que você informar.`,
    );
    expect(message.text).toContain(`Informe seus dados bancários para receber o reembolso:\n${BANK_DETAILS_URL}`);
    expect(message.html).toContain('Informe seus dados bancários para receber o reembolso.');
    expect(message.html).toMatch(
      /href="https:\/\/pagamento\.example\.com\.br\/estorno\/dados-bancarios\/7f2c"[^>]*>Informar dados bancários</,
    );
    for (const part of [message.text, message.html]) {
      expect(part).not.toContain('mesma forma de pagamento');
      expect(part).not.toContain('operadora do cartão');
    }
    await setup.harness.rowFor(sent.id, 'order-refunded');
  });

  test('does so too for a withdrawal, a late payment and a cancelled event; a card refund keeps the same way', async () => {
    const withdrawal = refunded('withdrawal', BANK_DETAILS_URL);
    const late = refunded('late_payment', BANK_DETAILS_URL);
    const cancelled = refunded('event_cancelled', BANK_DETAILS_URL);
    const byCard = refunded('refund', null);
    for (const payload of [withdrawal, late, cancelled, byCard]) await setup.harness.publish('order.refunded', payload);

    const [withdrew, latePaid, eventGone, card] = await Promise.all(
      [withdrawal, late, cancelled, byCard].map((payload) => oneFor(payload.buyer.email)),
    );
    expect(withdrew!.subject).toBe(`Sua desistência foi atendida: ${TITLE}`);
    expect(latePaid!.subject).toBe('Seu pagamento foi estornado');
    expect(eventGone!.subject).toBe(`Evento cancelado: ${TITLE}`);
    for (const message of [withdrew!, latePaid!, eventGone!]) {
      expect(message.text).toContain(`Informe seus dados bancários para receber o reembolso:\n${BANK_DETAILS_URL}`);
      expect(message.text).toContain('será transferido para a conta bancária que você informar');
      expect(message.html).toContain(`href="${BANK_DETAILS_URL}"`);
      expect(message.text).not.toContain('mesma forma de pagamento');
    }
    expect(card!.text).toContain('foi estornado para a mesma forma de pagamento');
    expect(card!.text).not.toContain('dados bancários');
  });
});

const invoice = (
  status: EventPayload<'invoice.changed'>['status'],
  fields: Partial<EventPayload<'invoice.changed'>> = {},
): EventPayload<'invoice.changed'> => ({
  orderId: randomUUID(),
  orderNumber: 'EF-004300',
  invoiceId: `inv_${randomUUID().slice(0, 12)}`,
  status,
  pdfUrl: status === 'authorized' ? 'https://nfse.example.com.br/notas/inv_123.pdf' : null,
  reason: null,
  recipient: { name: 'Drogaria Horizonte Ltda.', email: address('financeiro') },
  at: new Date().toISOString(),
  ...fields,
});

describe('an order’s nota fiscal', () => {
  test('once authorized, is e-mailed to whom the charge was made out, with the link to its PDF', async () => {
    const payload = invoice('authorized');
    await setup.harness.publish('invoice.changed', payload);
    const message = await oneFor(payload.recipient.email);
    expect(message.subject).toBe('Nota fiscal do pedido EF-004300');
    expect(message.to).toEqual([payload.recipient.email]);
    expect(message.text).toMatch(/^Olá, Drogaria Horizonte Ltda\.!\n/);
    expect(message.text).toContain('A nota fiscal de serviço (NFS-e) do pedido EF-004300 foi emitida.');
    expect(message.text).toContain('Baixe a nota fiscal em PDF:\nhttps://nfse.example.com.br/notas/inv_123.pdf');
    expect(message.html).toMatch(
      /href="https:\/\/nfse\.example\.com\.br\/notas\/inv_123\.pdf"[^>]*>Baixar nota fiscal \(PDF\)</,
    );
    const [row] = await setup.harness.rows({ dedupe_key: `invoice:${payload.invoiceId}:invoice-authorized` });
    expect(row).toMatchObject({
      template: 'invoice-authorized',
      to: payload.recipient.email,
      order_id: payload.orderId,
      user_id: null,
    });
    await waitFor(async () => (await setup.harness.rows({ id: row!.id }))[0]?.status === 'sent');
  });

  test('is e-mailed once per invoice, however many times its authorization is announced', async () => {
    const payload = invoice('authorized');
    const first = await setup.harness.publish('invoice.changed', payload);
    const again = await setup.harness.publish('invoice.changed', { ...payload, at: new Date().toISOString() });
    await inboxHas(first.id);
    await inboxHas(again.id);
    await oneFor(payload.recipient.email);
    expect(await setup.harness.rows({ order_id: payload.orderId })).toHaveLength(1);
    expect(setup.harness.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'e-mail already queued for this event', eventId: again.id }),
    );
    expect(receivedBy(payload.recipient.email)).toHaveLength(1);
  });

  test('sends nothing while scheduled, on an error, when cancelled, or authorized without its PDF or a recipient', async () => {
    const recipient = { name: 'Rafael Moreira Lima', email: address('rafael') };
    const orderId = randomUUID();
    const statuses = ['scheduled', 'error', 'cancelling', 'cancelled'] as const;
    const sent = [];
    for (const status of statuses) {
      sent.push(await setup.harness.publish('invoice.changed', invoice(status, { orderId, recipient })));
    }
    sent.push(
      await setup.harness.publish('invoice.changed', invoice('authorized', { orderId, recipient, pdfUrl: null })),
      // A charge made before payments kept whom it was made out to.
      await setup.harness.publish(
        'invoice.changed',
        invoice('authorized', { orderId, recipient: { name: '', email: '' } }),
      ),
    );
    // Each handled as nothing to send, none given up on as a dead letter.
    for (const { id } of sent) expect(await inboxHas(id)).toMatchObject({ outcome: 'handled' });
    expect(await setup.harness.rows({ order_id: orderId })).toEqual([]);
    expect(receivedBy(recipient.email)).toEqual([]);
  });
});
