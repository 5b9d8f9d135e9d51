import { readQrCode, waitFor } from '@ticketing/testkit';
import { adminEvent, redemptionForm, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

const INVALID_PROMO = 'Este código promocional não é válido para este evento.';

test('a guest redeems a free link: a R$ 0,00 paid order, the ticket at the e-mail typed, admitted once at the door', async () => {
  const { call, mailTo } = system;
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 10 });
  const created = await call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 2, overridePrice: null },
  });
  expect(created.status).toBe(201);
  const { code, redeemUrl } = created.body;
  expect(redeemUrl).toBe(`http://localhost:8080/cortesia?code=${code}`);
  expect((await call('GET', `/api/events/${eventId}`)).body).toMatchObject({ currentAttendees: 2 });

  const shown = await call('GET', `/api/courtesy-links/${code.toLowerCase()}`);
  expect(shown.body).toMatchObject({ code, eventId, remainingTickets: 2, overridePrice: null });
  // Naming no type, the link is of the event's first one, and so is the guest's ticket.
  const [firstType] = (await call('GET', `/api/events/${eventId}`)).body.ticketTypes;
  expect(shown.body.ticketType).toEqual({ id: firstType.id, name: firstType.name });

  const guest = await verifiedBuyer(system);
  const typed = `convidada.${Date.now()}@parceiro.example.com.br`;
  const redeemed = await call('POST', '/api/courtesy/redeem', {
    token: guest.token,
    body: redemptionForm(guest, code, typed),
  });
  expect(redeemed.status).toBe(201);
  expect(redeemed.body.message).toBe('Cortesia resgatada com sucesso!');
  const again = await call('POST', '/api/courtesy/redeem', {
    token: guest.token,
    body: redemptionForm(guest, code, typed),
  });
  expect(again).toEqual({ status: 409, body: { message: 'Você já resgatou esta cortesia.' } });

  const order = await waitFor(async () => {
    const { body } = await call('GET', '/api/orders?page=1', { token: guest.token });
    return body.orders[0]?.qrCodeData && body.orders[0];
  });
  expect(order).toMatchObject({
    status: 'paid',
    amount: '0.00',
    paymentMethod: null,
    event: { title: 'Workshop de Farmácia Clínica' },
    items: [expect.objectContaining({ ticketTypeId: firstType.id, typeName: firstType.name })],
  });

  const ticketMail = await mailTo(typed, 'Seu ingresso: Workshop de Farmácia Clínica');
  const attachment = ticketMail.attachments.find((file) => file.filename === `ingresso-${order.orderNumber}.png`)!;
  const png = await fetch(`${system.catcher.httpUrl}/api/email/${ticketMail.id}/attachment/${attachment.filename}`);
  const qrText = readQrCode(Buffer.from(await png.arrayBuffer()))!;
  const first = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
  expect(first.body).toMatchObject({ success: true, code: 'valid', userName: guest.name });
  const second = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
  expect(second.body).toMatchObject({ success: false, code: 'already_used' });

  expect((await call('GET', `/api/courtesy-links/${code}`)).body.remainingTickets).toBe(1);
  // The link held both spots from the start: redeeming one takes no other spot.
  expect((await call('GET', `/api/events/${eventId}`)).body).toMatchObject({ currentAttendees: 2 });
});

test('a promotional link charges its price plus the fee; cancelling gives its use back', async () => {
  const { call, sandbox } = system;
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 10 });
  const link = await call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 1, overridePrice: 80 },
  });
  expect(link.body.redeemUrl).toBe(`http://localhost:8080/event/${eventId}?promo=${link.body.code}`);
  const promoCode = link.body.code.toLowerCase();
  const [first, second] = [await verifiedBuyer(system), await verifiedBuyer(system)];

  const bought = await call('POST', '/api/orders', {
    token: first.token,
    body: { eventId, paymentMethod: 'pix', promoCode },
  });
  expect(bought.status).toBe(201);
  expect(bought.body.order.amount).toBe('85.00');
  expect(sandbox.payments.get(bought.body.order.asaasPaymentId)!.value).toBe(85);

  const refused = await call('POST', '/api/orders', {
    token: second.token,
    body: { eventId, paymentMethod: 'pix', promoCode },
  });
  expect(refused).toEqual({ status: 400, body: { message: INVALID_PROMO } });

  const cancelled = await call('DELETE', `/api/orders/${bought.body.order.id}/cancel`, { token: first.token });
  expect(cancelled.status).toBe(200);
  await waitFor(async () => (await call('GET', `/api/courtesy-links/${promoCode}`)).body.remainingTickets === 1);
  const now = await call('POST', '/api/orders', {
    token: second.token,
    body: { eventId, paymentMethod: 'boleto', promoCode },
  });
  expect(now.status).toBe(201);
  expect(now.body.order.amount).toBe('85.00');
});
