import { randomUUID } from 'node:crypto';
import { createLogger } from '@ticketing/platform';
import { parseQrText } from '@ticketing/proto';
import {
  createTicketKeys,
  ensureTicketKey,
  hasValidSignature,
  retireTicketKey,
  rotateTicketKey,
  signTicket,
} from '../src/index.ts';
import { startTickets, type Harness } from './support.ts';

let tickets: Harness;
const logger = createLogger('test', 'silent');

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

test('processes starting together create one signing key; starting again creates none', async () => {
  expect(await tickets.db('signing_keys')).toHaveLength(1);
  await Promise.all(Array.from({ length: 5 }, () => ensureTicketKey({ db: tickets.db, logger })));
  expect(await tickets.db('signing_keys')).toHaveLength(1);
  expect(tickets.logs.lines.filter((line) => line.msg === 'ticket signing key created' && line.kid)).toHaveLength(1);
});

test('rotation: the new key signs, older QR codes keep verifying until their key is retired', async () => {
  const { issued, order } = await tickets.issue();
  const keys = createTicketKeys(tickets.db, logger, 60_000);
  const old = await keys.signing();
  expect(parseQrText(issued.qrText)!.kid).toBe(old.kid);

  const kid = await rotateTicketKey({ db: tickets.db, logger, keys });
  expect(kid).not.toBe(old.kid);
  const current = await keys.signing();
  expect(current.kid).toBe(kid);
  const claims = { ticketId: issued.ticketId, eventId: order.eventId, version: 1 };
  const newer = parseQrText(signTicket(claims, current))!;
  const older = parseQrText(issued.qrText)!;
  expect(hasValidSignature(newer, (await keys.verifying(kid))!)).toBe(true);
  expect(hasValidSignature(older, (await keys.verifying(old.kid))!)).toBe(true);
  expect((await keys.published()).map((key) => key.kid)).toEqual([kid, old.kid]);

  expect(await retireTicketKey({ db: tickets.db, logger, keys }, old.kid)).toBe(true);
  expect(await keys.verifying(old.kid)).toBeUndefined();
  expect((await keys.published()).map((key) => key.kid)).toEqual([kid]);
  expect(await retireTicketKey({ db: tickets.db, logger, keys }, old.kid)).toBe(false);
  expect(await tickets.db('signing_keys').whereNotNull('retired_at').pluck('kid')).toEqual([old.kid]);
});

test('an unknown key id re-reads the keys, but not more than once per interval', async () => {
  const eager = createTicketKeys(tickets.db, logger, 60_000, { unknownKidRefreshMs: 0 });
  const guarded = createTicketKeys(tickets.db, logger, 60_000);
  await Promise.all([eager.refresh(), guarded.refresh()]);

  const kid = await rotateTicketKey({ db: tickets.db, logger });
  // Learned on first sight…
  expect(await eager.verifying(kid)).toBeDefined();
  // …unless the keys were read less than a second ago: forged key ids cannot make every scan hit the database.
  expect(await guarded.verifying(kid)).toBeUndefined();
  expect(await guarded.verifying(randomUUID().slice(0, 8))).toBeUndefined();
});
