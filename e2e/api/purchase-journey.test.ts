import { randomInt } from 'node:crypto';
import { readQrCode, waitFor } from '@ticketing/platform/testing';
import { startSystem } from './support.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

function newCpf(): string {
  const digits = Array.from({ length: 9 }, () => randomInt(10));
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, i) => total + digit * (length + 1 - i), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  const s = digits.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** A registered buyer whose e-mail was verified with the code that arrived by e-mail. */
async function verifiedBuyer() {
  const person = {
    name: 'Beatriz Campos Rocha',
    cpf: newCpf(),
    birthDate: '21/07/1991',
    email: `beatriz.${randomInt(1e9)}@example.com.br`,
    phone: '(11) 98888-7777',
    address: 'Rua Haddock Lobo, 595 — Cerqueira César, São Paulo — SP',
    password: 'compra-segura-1',
  };
  await system.call('POST', '/api/auth/register', { body: person });
  const codeMail = await system.mailTo(person.email, 'Seu código de verificação');
  const code = /\b(\d{6})\b/.exec(codeMail.text ?? '')![1];
  const verified = await system.call('POST', '/api/auth/verify-code', { body: { email: person.email, code } });
  return { ...person, token: verified.body.token as string };
}

test('buying with PIX, boleto and card: paid in the provider, the QR ticket arrives by e-mail and admits once', async () => {
  const { call, mailTo, sandbox } = system;
  const admin = await call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const adminToken = admin.body.token as string;
  const created = await call('POST', '/api/events', {
    token: adminToken,
    body: {
      title: 'Workshop de Farmácia Clínica',
      description: 'Casos práticos de acompanhamento farmacoterapêutico.',
      date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      location: 'Belo Horizonte — MG',
      price: '150.00',
      maxAttendees: 10,
    },
  });
  expect(created.status).toBe(201);
  const eventId = created.body.id as string;
  const buyer = await verifiedBuyer();

  for (const [method, shown] of [
    ['pix', 'pixPayload'],
    ['boleto', 'boletoUrl'],
    ['credit_card', 'invoiceUrl'],
  ] as const) {
    const bought = await call('POST', '/api/orders', { token: buyer.token, body: { eventId, paymentMethod: method } });
    expect(bought.status).toBe(201);
    expect(bought.body.order).toMatchObject({ status: 'pending', amount: '155.00', paymentMethod: method });
    expect(bought.body.payment[shown]).toEqual(expect.any(String));
    const { id: orderId, asaasPaymentId, orderNumber } = bought.body.order;
    if (method === 'pix') expect(bought.body.payment.pixQrCode).toEqual(expect.any(String));
    if (method === 'credit_card') {
      const link = await mailTo(buyer.email, `Finalize o pagamento do seu ingresso: Workshop de Farmácia Clínica`);
      expect(link.text).toContain(bought.body.payment.invoiceUrl);
    }

    // The provider confirms; its webhook reaches payments through the gateway, and the order chain follows.
    sandbox.confirm(asaasPaymentId);
    const paid = await waitFor(async () => {
      const { body } = await call('GET', '/api/orders?page=1', { token: buyer.token });
      const order = body.orders.find((candidate: { id: string }) => candidate.id === orderId);
      return order?.status === 'paid' && order.qrCodeData && order;
    });
    expect(paid).toMatchObject({
      amount: '155.00',
      qrCodeUsed: false,
      event: { title: 'Workshop de Farmácia Clínica' },
    });

    // The ticket e-mail carries the QR code; what it says is what the door scans.
    const ticketMail = await mailTo(buyer.email, 'Seu ingresso: Workshop de Farmácia Clínica', 0);
    const attachment = ticketMail.attachments.find((file) => file.filename === `ingresso-${orderNumber}.png`)!;
    const mailed = (await system.catcher.messages()).find((message) => message.id === ticketMail.id)!;
    expect(attachment).toBeDefined();
    const png = await fetch(`${system.catcher.httpUrl}/api/email/${mailed.id}/attachment/${attachment.filename}`);
    const qrText = readQrCode(Buffer.from(await png.arrayBuffer()));
    expect(qrText).toMatch(/^T1\./);

    const first = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
    expect(first.body).toMatchObject({ success: true, code: 'valid', userName: buyer.name });
    const second = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
    expect(second.body).toMatchObject({ success: false, code: 'already_used' });
    expect(second.body.message).toMatch(/^Ingresso já utilizado em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}$/);
    await waitFor(async () => {
      const { body } = await call('GET', '/api/orders?page=1', { token: buyer.token });
      return body.orders.find((candidate: { id: string }) => candidate.id === orderId)?.qrCodeUsed === true;
    });
    await system.catcher.clear();
  }

  const event = await call('GET', `/api/events/${eventId}`);
  expect(event.body).toMatchObject({ currentAttendees: 3, remaining: 7 });
});

test('the buyer cannot see, cancel or check another buyer’s order, and a non-admin cannot verify', async () => {
  const [owner, stranger] = [await verifiedBuyer(), await verifiedBuyer()];
  const [event] = (await system.call('GET', '/api/events')).body as { id: string }[];
  expect(event).toBeDefined();
  const bought = await system.call('POST', '/api/orders', {
    token: owner.token,
    body: { eventId: event!.id, paymentMethod: 'pix' },
  });
  expect(bought.status).toBe(201);
  const orderId = bought.body.order.id as string;
  expect((await system.call('GET', '/api/orders?page=1', { token: stranger.token })).body.orders).toEqual([]);
  for (const [method, path] of [
    ['DELETE', `/api/orders/${orderId}/cancel`],
    ['POST', `/api/orders/${orderId}/check-status`],
  ] as const) {
    expect(await system.call(method, path, { token: stranger.token })).toEqual({
      status: 404,
      body: { message: 'Pedido não encontrado' },
    });
  }
  const verify = await system.call('POST', '/api/verify-ticket', { token: owner.token, body: { qrCodeData: 'T1.x' } });
  expect(verify.status).toBe(403);
});
