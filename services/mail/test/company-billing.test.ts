import { randomUUID } from 'node:crypto';
import { readQrCode } from '@ticketing/testkit';
import type { EventPayload } from '@ticketing/proto';
import { PUBLIC_URL, waitFor, useMailAndCatcher } from './support.ts';

const setup = useMailAndCatcher();

type Item = NonNullable<EventPayload<'order.created'>['items']>[number];

const TITLE = 'Congresso de Farmacovigilância';
const event = { title: TITLE, date: '2027-03-12T22:00:00.000Z', location: 'São Paulo — SP' };
const PIX_CODE =
  '00020101021226820014br.gov.bcb.pix2560pix.example.com.br/qr/v2/cobv/9d36b84f-c70b-478f-b95c-12729b90ca255204000053039865406395.005802BR5925EDUCACAO FARMA LTDA6009SAO PAULO62070503***6304A1B2';
const BOLETO_LINE = '23790001246004123456789012345678912340000039500';

const address = (name: string) => `${name}.${randomUUID().slice(0, 8)}@example.com.br`;
const receivedBy = (email: string) => setup.catcher.messages().filter((message) => message.to.includes(email));
const oneFor = async (email: string) => (await waitFor(() => receivedBy(email).length === 1 && receivedBy(email)))[0]!;

const item = (index: number, typeName: string, price: string, holderName: string): Item => ({
  index,
  ticketTypeId: randomUUID(),
  typeName,
  lotName: null,
  price,
  requiresDocument: false,
  holder: { name: holderName, email: address('participante'), cpf: null },
});

/** An order of two tickets bought for a company, as orders announces it; `pay` picks how it is paid. */
function companyOrder(pay: Partial<EventPayload<'order.created'>> = {}): EventPayload<'order.created'> {
  return {
    orderId: randomUUID(),
    orderNumber: `EF-${Math.floor(Math.random() * 1e6)}`,
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '560.00',
    paymentMethod: 'pix',
    expiresAt: '2027-03-01T17:32:00.000Z',
    invoiceUrl: null,
    pixPayload: PIX_CODE,
    boletoUrl: null,
    boletoLine: null,
    buyer: { name: 'Marina Queiroz', email: address('marina') },
    event,
    items: [item(0, 'Profissional', '390.00', 'Ana Souza Lima'), item(1, 'Estudante', '190.00', 'Caio Mendes Prado')],
    company: {
      cnpj: '11222333000181',
      name: 'Drogaria Horizonte Ltda.',
      email: address('financeiro'),
      purchaseOrder: 'PC-2027/0042',
    },
    discountAmount: '20.00',
    ...pay,
  };
}

test("a PIX order for a company e-mails the buyer as ever and the company's finance the charge, with the same code", async () => {
  const order = companyOrder();
  const sent = await setup.harness.publish('order.created', order);
  const finance = await oneFor(order.company!.email);
  const buyers = await oneFor(order.buyer.email);

  expect(finance.subject).toBe(`Cobrança do pedido ${order.orderNumber} – ${TITLE}`);
  expect(finance.to).toEqual([order.company!.email]);
  expect(finance.text).toMatch(/^Ao setor financeiro de Drogaria Horizonte Ltda\.,\n/);
  expect(finance.text).toContain(
    `Marina Queiroz fez o pedido ${order.orderNumber} para ${TITLE} em nome da empresa, com pagamento por PIX. A cobrança foi emitida para o CNPJ 11.222.333/0001-81.`,
  );
  expect(finance.text).toContain(
    `Razão social: Drogaria Horizonte Ltda.\nCNPJ: 11.222.333/0001-81\nPedido de compra: PC-2027/0042\nPedido: ${order.orderNumber}`,
  );
  expect(finance.text).toContain(
    'Ingressos do pedido:\n- Profissional — Ana Souza Lima — R$\u00a0390,00\n- Estudante — Caio Mendes Prado — R$\u00a0190,00',
  );
  expect(finance.text).toContain('Desconto: − R$\u00a020,00\nTotal: R$\u00a0560,00');
  expect(finance.text).toContain(`escolha pagar com PIX copia e cola e cole este código:\n\n${PIX_CODE}\n`);
  expect(finance.text).toContain(
    'O código PIX vale até as 14:32 (horário de Brasília) de segunda-feira, 1 de março de 2027.',
  );
  expect(finance.html).toContain('11.222.333/0001-81');
  expect(finance.html).toContain('PC-2027/0042');
  expect(finance.html).toContain('Caio Mendes Prado');
  expect(finance.html).toContain(PIX_CODE);
  expect(finance.html).toContain('src="cid:pix-qr"');
  // The finance department has no access to the buyer's orders: no link to them.
  expect(finance.text).not.toContain(`${PUBLIC_URL}/profile`);
  const [qr] = finance.attachments;
  expect(finance.attachments).toHaveLength(1);
  expect([qr!.filename, qr!.contentType]).toEqual([`pix-${order.orderNumber}.png`, 'image/png']);
  expect(readQrCode(qr!.content)).toBe(PIX_CODE);

  // The buyer's e-mail is the one they always got, with the discount beside the total.
  expect(buyers.subject).toBe(`Finalize o pagamento do seu ingresso: ${TITLE}`);
  expect(buyers.text).toContain('Desconto: − R$\u00a020,00\nTotal: R$\u00a0560,00');
  expect(readQrCode(buyers.attachments[0]!.content)).toBe(PIX_CODE);

  const rows = await setup.harness.rows({ order_id: order.orderId });
  expect(rows.map((row) => [row.template, row.to, row.user_id, row.dedupe_key]).sort()).toEqual([
    ['company-billing', order.company!.email, order.userId, `${sent.id}:company-billing`],
    ['pix-payment', order.buyer.email, order.userId, `${sent.id}:pix-payment`],
  ]);
  await setup.harness.rowFor(sent.id, 'company-billing');
});

test('a boleto order for a company gives its finance the digitable line, the PDF and the due date', async () => {
  const order = companyOrder({
    paymentMethod: 'boleto',
    pixPayload: null,
    expiresAt: '2027-03-10T02:59:59.000Z',
    boletoUrl: 'https://pagamento.example.com.br/b/pdf/77aa',
    boletoLine: BOLETO_LINE,
    discountAmount: '0.00',
  });
  order.company!.purchaseOrder = null;
  await setup.harness.publish('order.created', order);
  const finance = await oneFor(order.company!.email);

  expect(finance.subject).toBe(`Cobrança do pedido ${order.orderNumber} – ${TITLE}`);
  expect(finance.text).toContain('com pagamento por boleto');
  expect(finance.text).toContain(`Pague pelo app ou site do seu banco com a linha digitável:\n\n${BOLETO_LINE}\n`);
  expect(finance.text).toContain(
    'Boleto em PDF, para imprimir ou pagar em uma agência ou lotérica:\nhttps://pagamento.example.com.br/b/pdf/77aa',
  );
  expect(finance.text).toContain('O boleto vence em terça-feira, 9 de março de 2027.');
  expect(finance.html).toMatch(
    /href="https:\/\/pagamento\.example\.com\.br\/b\/pdf\/77aa"[^>]*>Baixar boleto \(PDF\)</,
  );
  expect(finance.html).toContain(BOLETO_LINE);
  // No purchase order given, no discount taken: neither is shown.
  expect(finance.text).not.toMatch(/Pedido de compra|Desconto/);
  expect(finance.attachments).toEqual([]);
  expect((await oneFor(order.buyer.email)).subject).toBe(`Finalize o pagamento do seu ingresso: ${TITLE}`);
});

test('a card order in installments shows each installment to the company and to the buyer, with the payment page', async () => {
  const order = companyOrder({
    paymentMethod: 'credit_card',
    pixPayload: null,
    amount: '395.00',
    installments: 3,
    invoiceUrl: 'https://pagamento.example.com.br/i/c4rd',
    discountAmount: undefined,
  });
  await setup.harness.publish('order.created', order);
  const finance = await oneFor(order.company!.email);
  const buyers = await oneFor(order.buyer.email);

  // R$ 395,00 in 3: R$ 131,67 each (the provider adjusts the last).
  for (const message of [finance, buyers]) {
    expect(message.text).toContain('Total: R$\u00a0395,00\nParcelamento: em 3x de R$\u00a0131,67');
    expect(message.text).toContain(
      'Pague em 3x de R$\u00a0131,67 com cartão de crédito pelo link seguro:\nhttps://pagamento.example.com.br/i/c4rd',
    );
    expect(message.html).toContain('em 3x de R$\u00a0131,67');
    expect(message.html).toMatch(/href="https:\/\/pagamento\.example\.com\.br\/i\/c4rd"[^>]*>Pagar com cartão</);
  }
  expect(finance.text).toContain('com pagamento por cartão de crédito');
  expect(buyers.text).toContain(`está aguardando o pagamento de R$\u00a0395,00 em 3x de R$\u00a0131,67.`);
});

test('an order not bought for a company e-mails only the buyer', async () => {
  const order = companyOrder({ company: null, discountAmount: undefined });
  const sent = await setup.harness.publish('order.created', order);
  await setup.harness.rowFor(sent.id, 'pix-payment');
  expect((await setup.harness.rows({ order_id: order.orderId })).map((row) => row.template)).toEqual(['pix-payment']);
  expect((await oneFor(order.buyer.email)).text).not.toMatch(/Desconto|Parcelamento/);
});

test("the buyer's confirmation of a paid order shows the discount and the installments", async () => {
  const buyer = { name: 'Marina Queiroz', email: address('marina') };
  const paid: EventPayload<'order.paid'> = {
    orderId: randomUUID(),
    orderNumber: `EF-${Math.floor(Math.random() * 1e6)}`,
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '1200.00',
    paidAt: new Date().toISOString(),
    buyer,
    event,
    courtesyLinkId: null,
    paymentMethod: 'credit_card',
    items: [
      item(0, 'Profissional', '650.00', 'Ana Souza Lima'),
      item(1, 'Profissional', '650.00', 'Caio Mendes Prado'),
    ],
    installments: 10,
    discountAmount: '100.00',
  };
  const sent = await setup.harness.publish('order.paid', paid);
  const message = await oneFor(buyer.email);
  expect(message.subject).toBe(`Pedido confirmado: ${TITLE}`);
  expect(message.text).toContain(
    'Desconto: − R$\u00a0100,00\nTotal: R$\u00a01.200,00\nParcelamento: em 10x de R$\u00a0120,00',
  );
  expect(message.html).toContain('− R$\u00a0100,00');
  expect(message.html).toContain('em 10x de R$\u00a0120,00');
  await setup.harness.rowFor(sent.id, 'order-confirmed');
});
