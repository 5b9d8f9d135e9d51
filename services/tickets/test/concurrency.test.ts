import { startTickets, type Harness, type ScanAnswer, ticketRows } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

test('50 simultaneous scans of one ticket across two verifier processes admit exactly one', async () => {
  const second = await tickets.startVerifier();
  const { issued, order } = await tickets.issue();
  const instances = [tickets.verifier, second];

  const answers = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const response = await tickets.verify({ qrCodeData: issued.qrText }, { via: instances[i % 2] });
      expect(response.status).toBe(200);
      return (await response.json()) as ScanAnswer;
    }),
  );

  const codes = answers.map((answer) => answer.code);
  expect(codes.filter((code) => code === 'valid')).toHaveLength(1);
  expect(codes.filter((code) => code === 'already_used')).toHaveLength(49);
  const [row] = await ticketRows(tickets.db, { id: issued.ticketId });
  expect(row.used_by).toBe(tickets.admin.id);
  for (const answer of answers.filter((entry) => !entry.success)) {
    expect(answer.usedAt).toBe(row.used_at.toISOString());
    expect(answer.message).toMatch(/^Ingresso já utilizado em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}$/);
  }

  const scans = await tickets.db('scans').where({ ticket_id: issued.ticketId });
  expect(scans).toHaveLength(50);
  expect(scans.filter((scan) => scan.code === 'valid')).toHaveLength(1);
  expect(scans.filter((scan) => scan.code === 'already_used')).toHaveLength(49);
  expect(await tickets.events('ticket.checked-in', issued.ticketId)).toEqual([
    expect.objectContaining({ ticketId: issued.ticketId, orderId: order.orderId }),
  ]);
  expect(
    tickets.logs.lines.filter((line) => line.ticketId === issued.ticketId && line.msg === 'ticket refused'),
  ).toHaveLength(49);
  // Each process served its half of the burst.
  for (const instance of instances) {
    const served = (await instance.metrics.httpRequests.get()).values
      .filter((value) => value.labels.route === '/api/verify-ticket' && value.labels.status === '200')
      .reduce((sum, value) => sum + value.value, 0);
    expect(served).toBe(25);
  }
});

test('a reset racing with scans leaves the ticket admitted at most once per reset', async () => {
  const { issued, order } = await tickets.issue();
  expect((await tickets.scan(issued.qrText)).code).toBe('valid');

  const [reset, ...answers] = await Promise.all([
    tickets.reset(order.orderId),
    ...Array.from({ length: 10 }, () => tickets.scan(issued.qrText)),
  ]);
  expect(reset.status).toBe(200);
  const admitted = answers.filter((answer) => answer.code === 'valid');
  // Scans before the reset see it used; after it, exactly one gets in.
  expect(admitted.length).toBeLessThanOrEqual(1);
  const checkIns = await tickets.events('ticket.checked-in', issued.ticketId);
  expect(checkIns).toHaveLength(1 + admitted.length);
  const [row] = await ticketRows(tickets.db, { id: issued.ticketId });
  expect(row.used_at === null).toBe(admitted.length === 0);
});
