import { randomUUID } from 'node:crypto';
import { createDb, migrate } from '@ticketing/platform';
import { dropSchemas, TEST_DATABASE_URL, uniqueName } from '@ticketing/testkit';
import { ordersMigrations } from '../src/data/migrations.ts';

const schema = uniqueName('orders_lines');
const db = createDb(TEST_DATABASE_URL, schema, 2);
afterAll(async () => {
  await db.destroy();
  await dropSchemas([schema]);
});

test('orders stored before lines get one each (the buyer or guest holds it); their tickets move to ticket_views', async () => {
  await migrate(
    db,
    schema,
    ordersMigrations.slice(
      0,
      ordersMigrations.findIndex((m) => m.name === '0013_order_items'),
    ),
  );
  const snapshot = { event_title: 'Antigo', event_date: new Date('2030-05-10T12:00:00Z'), event_location: 'Recife' };
  const bought = {
    id: randomUUID(),
    user_id: randomUUID(),
    event_id: randomUUID(),
    cpf: '123.456.789-09',
    status: 'paid',
    payment_method: 'pix',
    amount: '155.00',
    paid_at: new Date('2030-01-02T10:00:00Z'),
    buyer_name: 'Maria da Silva',
    buyer_email: 'maria@exemplo.com.br',
    pix_payload: '000201…',
    qr_code_data: 'data:image/png;base64,AAAA',
    qr_code_used: true,
    qr_code_used_at: new Date('2030-05-10T11:30:00Z'),
    first_checked_in_at: new Date('2030-05-10T11:30:00Z'),
    ...snapshot,
  };
  const courtesy = {
    id: randomUUID(),
    user_id: randomUUID(),
    event_id: bought.event_id,
    courtesy_attendee_id: randomUUID(),
    courtesy_link_id: randomUUID(),
    cpf: null,
    status: 'paid',
    payment_method: null,
    amount: '0.00',
    buyer_name: 'Joana Prado',
    buyer_email: 'joana@exemplo.com.br',
    ...snapshot,
  };
  await db('orders').insert([bought, courtesy]);

  await migrate(db, schema, ordersMigrations);

  expect(await db('order_items').orderBy('price', 'desc')).toEqual([
    {
      order_id: bought.id,
      index: 0,
      ticket_type_id: bought.event_id,
      type_name: 'Ingresso',
      lot_name: null,
      price: '150.00',
      requires_document: false,
      holder_name: 'Maria da Silva',
      holder_email: 'maria@exemplo.com.br',
      holder_cpf: '123.456.789-09',
    },
    {
      order_id: courtesy.id,
      index: 0,
      ticket_type_id: bought.event_id,
      type_name: 'Ingresso',
      lot_name: null,
      price: '0.00',
      requires_document: false,
      holder_name: 'Joana Prado',
      holder_email: 'joana@exemplo.com.br',
      holder_cpf: null,
    },
  ]);
  expect(await db('ticket_views')).toEqual([
    {
      order_id: bought.id,
      item_index: 0,
      ticket_id: null,
      qr_code_data: 'data:image/png;base64,AAAA',
      issued_at: bought.paid_at,
      used_at: bought.qr_code_used_at,
      reset_at: null,
      first_admitted_at: bought.first_checked_in_at,
    },
  ]);
  // How to pay and the ticket's QR are no longer the order's.
  const columns = Object.keys((await db('orders').where({ id: bought.id }).first()) as object);
  for (const gone of ['pix_payload', 'invoice_url', 'boleto_line', 'qr_code_data', 'qr_code_used', 'qr_code_used_at']) {
    expect(columns).not.toContain(gone);
  }
  expect(columns).toContain('first_checked_in_at');
});
