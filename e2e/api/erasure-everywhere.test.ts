import { createServer } from 'node:net';
import { makeCpf, startTestService, type TestService } from '@ticketing/testkit';
import { certificatesService } from '@ticketing/certificates';
import { courtesyService } from '@ticketing/courtesy';
import { mailService } from '@ticketing/mail';
import { ticketsWorkerService } from '@ticketing/tickets';
import {
  bought,
  json,
  startOrders,
  storedAnywhere,
  waitFor,
  type Harness,
} from '../../services/orders/test/support.ts';

/**
 * Orders, tickets, courtesy, certificates, mail and the catalog on one bus, each in its own schema, with a person who bought a
 * ticket, redeemed a courtesy and was invited by a mass send: after user.deleted, no table of any of them holds
 * the person's name, e-mail, CPF, phone or address.
 */
let h: Harness;
let services: Record<'tickets' | 'courtesy' | 'certificates' | 'mail', TestService<unknown>>;

/** A port nothing listens on: mail keeps its e-mails waiting, as when the relay is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  h = await startOrders();
  const shared = { busSchema: h.busSchema, verifyToken: h.issuer.verifyToken };
  const courtesy = await startTestService(courtesyService, {
    ...shared,
    env: { CATALOG_URL: h.catalog.url, PUBLIC_URL: 'https://ingressos.example', MASS_SEND_POLL_MS: '100' },
  });
  services = {
    tickets: await startTestService(ticketsWorkerService, shared),
    courtesy,
    certificates: await startTestService(certificatesService, shared),
    mail: await startTestService(mailService, {
      ...shared,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
        MAIL_RETRY_BASE_MS: '600000',
        COURTESY_URL: courtesy.url,
        PUBLIC_URL: 'https://ingressos.example',
      },
    }),
  };
});
afterAll(async () => {
  for (const service of Object.values(services)) await service.stop();
  await h.stop();
});

const count = async (service: { db: TestService<unknown>['db'] }, table: string, where: Record<string, unknown>) =>
  Number((await service.db(table).where(where).count({ n: '*' }))[0]!.n);

test('after user.deleted no table of orders, tickets, courtesy, certificates, mail or catalog holds the person', async () => {
  const cpf = makeCpf();
  const who = await h.buyer({ name: 'Heloísa Vasconcelos Prado', cpf, phone: '(31) 99876-5432' });
  const address = 'Rua Professor Estevão Pinto, 987 – Belo Horizonte';
  const event = await h.createEvent({ maxAttendees: 20 });
  const manager = await h.issuer.sign({ roles: ['admin', 'courtesyManager'], name: 'Gestora' });
  const courtesyCall = (path: string, init: RequestInit & { token: string }) =>
    fetch(services.courtesy.url + path, {
      ...init,
      headers: { authorization: `Bearer ${init.token}`, ...(init.headers as Record<string, string>) },
    });

  // Registered (mail sends the code to the account's address), bought with a card and paid.
  await h.publish('user.verification-code-issued', {
    userId: who.id,
    email: who.email,
    name: who.name,
    code: '123456',
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  });
  const { order } = await bought(h, who, event.id, 'credit_card');
  const row = await h.orderRow(order.id);
  await h.publish('payment.confirmed', {
    orderId: order.id,
    paymentId: row.asaas_payment_id,
    providerStatus: 'RECEIVED',
    value: row.amount,
    paidAt: new Date().toISOString(),
  });
  // Invited by a mass send, then redeemed a free link with the form's data.
  const form = new FormData();
  form.append(
    'csvFile',
    new Blob([`name;email;amount_of_courtesies;event_id\r\n${who.name};${who.email};1;${event.id}`], {
      type: 'text/csv',
    }),
    'convidados.csv',
  );
  expect((await courtesyCall('/api/courtesy/mass-send', { method: 'POST', body: form, token: manager })).status).toBe(
    202,
  );
  const link = await json(
    await courtesyCall('/api/courtesy-links', {
      method: 'POST',
      token: manager,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventId: event.id, ticketCount: 1, overridePrice: null }),
    }),
  );
  const redeemed = await courtesyCall('/api/courtesy/redeem', {
    method: 'POST',
    token: who.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: who.name,
      email: who.email,
      emailConfirm: who.email,
      cpf,
      partnerCompany: 'Laboratório Serra Azul',
      occupation: 'Farmacêutica responsável',
      birthDate: '1985-09-23',
      address,
      phone: who.phone,
      code: link.code,
    }),
  });
  expect(redeemed.status).toBe(201);

  // Everything has reached every service: two paid orders with their QR codes, two tickets, five e-mails.
  await waitFor(async () => (await count(h.orders, 'orders', { user_id: who.id, status: 'paid' })) === 2);
  await waitFor(
    async () =>
      (
        await h.orders
          .db('ticket_views')
          .join('orders', 'orders.id', 'ticket_views.order_id')
          .where({ user_id: who.id })
      ).length === 2,
  );
  await waitFor(async () => (await count(services.tickets, 'tickets', { user_id: who.id })) === 2);
  await waitFor(async () => (await count(services.certificates, 'holders', { user_id: who.id })) === 2);
  await waitFor(
    async () => (await services.mail.db('email_queue').whereRaw('lower("to") = ?', [who.email])).length === 5,
  );

  const personal = [who.name, who.email, cpf, cpf.replace(/\D/g, ''), who.phone!, address];
  const storedIn = async () => {
    const hits: string[] = [];
    for (const service of [h.orders, h.catalog, ...Object.values(services)]) {
      hits.push(...(await storedAnywhere(service.db, service.schema, personal)));
    }
    return hits;
  };
  // The search finds the person where they are: in every one of these services.
  const before = await storedIn();
  for (const service of [h.orders, ...Object.values(services)]) {
    expect(before.some((hit) => hit.startsWith(`${service.schema}.`))).toBe(true);
  }

  const deleted = await h.publish('user.deleted', { userId: who.id });
  for (const service of [h.orders, ...Object.values(services)]) await h.handled(deleted, service);

  expect(await storedIn()).toEqual([]);
  // What is not personal stays: the orders, their amounts and statuses, the tickets, the e-mails' records.
  expect((await h.ordersOf(who.id)).map((order) => [order.status, order.amount])).toEqual([
    ['paid', '155.00'],
    ['paid', '0.00'],
  ]);
  expect(await count(services.tickets, 'tickets', { user_id: who.id, status: 'valid' })).toBe(2);
  expect(await count(services.mail, 'email_queue', { user_id: who.id })).toBe(4);
});
