import { randomUUID } from 'node:crypto';
import { startTickets, type Harness } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

test('user.deleted erases the holder from tickets and stored events, keeps everything else, and sticks', async () => {
  const userId = randomUUID();
  const person = { name: 'Heloísa Vasconcelos Prado', email: `heloisa.${userId.slice(0, 8)}@example.com.br` };
  const erased = { name: 'Titular removido', email: `removido+${userId.slice(0, 8)}@anonimo.invalid` };
  const first = await tickets.issue({ userId, buyer: { ...person, cpf: '529.982.247-25' } });
  const second = await tickets.issue({ userId, buyer: person });
  const other = await tickets.issue();
  expect((await tickets.scan(first.issued.qrText)).code).toBe('valid');
  const before = await tickets.db('tickets').where({ user_id: userId }).orderBy('created_at');
  expect(before[0]).toMatchObject({ holder_cpf: '52998224725' });

  await tickets.handled(await tickets.emit('user.deleted', { userId }));

  const after = await tickets.db('tickets').where({ user_id: userId }).orderBy('created_at');
  expect(after).toEqual(
    before.map((row) => ({
      ...row,
      holder_name: erased.name,
      holder_email: erased.email,
      holder_cpf: null,
      // A change: scanners read it again.
      revision: expect.any(Number),
    })),
  );
  expect(await tickets.db('tickets').where({ id: other.issued.ticketId }).first()).toMatchObject({
    holder_name: 'Maria da Silva',
    holder_email: other.order.buyer.email,
  });
  for (const { issued } of [first, second]) {
    // The buyer of every stored event loses the CPF too (order.paid carries one).
    expect(await tickets.events('ticket.issued', issued.ticketId)).toEqual([
      { ...issued, buyer: { ...erased, cpf: '' } },
    ]);
  }
  expect(await tickets.events('ticket.issued', other.issued.ticketId)).toEqual([other.issued]);
  // The door still knows the ticket, by the mark.
  expect(await tickets.scan(second.issued.qrText)).toMatchObject({ code: 'valid', userName: erased.name });

  // An order of theirs paid before the deletion but delivered after it names nobody either.
  const late = await tickets.issue({ userId, buyer: person });
  expect(late.issued.buyer).toEqual(erased);
  expect(await tickets.db('tickets').where({ id: late.issued.ticketId }).first()).toMatchObject({
    holder_name: erased.name,
    holder_email: erased.email,
  });

  const stored = JSON.stringify([await tickets.db('tickets'), await tickets.db('outbox'), await tickets.db('scans')]);
  expect(stored).not.toContain(person.email);
  expect(stored).not.toContain(person.name);
  expect(stored).not.toContain('52998224725');
  expect(tickets.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'personal data erased', userId, tickets: 2, events: 2 }),
  );
});

test('user.deleted for someone with no tickets, or delivered twice, changes nothing else', async () => {
  const { issued } = await tickets.issue();
  const before = await tickets.db('tickets').where({ id: issued.ticketId }).first();
  const userId = randomUUID();
  await tickets.handled(await tickets.emit('user.deleted', { userId }), await tickets.emit('user.deleted', { userId }));
  expect(await tickets.db('tickets').where({ id: issued.ticketId }).first()).toEqual(before);
  expect(await tickets.db('forgotten_users').where({ user_id: userId })).toHaveLength(1);
});
