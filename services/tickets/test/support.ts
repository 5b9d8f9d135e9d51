import { randomUUID } from 'node:crypto';
import {
  createLogger,
  createPostgresTransport,
  defineService,
  signEnvelope,
  type Knex,
  type TokenVerifier,
} from '@ticketing/platform';
import {
  captureLogs,
  createTestIssuer,
  dropSchemas,
  startTestService,
  TEST_DATABASE_URL,
  testKeyRing,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
import { mayPublish, type Envelope, type EventPayload, type EventType } from '@ticketing/proto';
import { ticketsVerifierService, ticketsWorkerService, type TicketsConfig } from '../src/index.ts';

/**
 * Stand in for the services tickets hears (orders, identity, catalog): each writes the events its service owns to
 * its outbox, signed as that service, as they do.
 */
const STAND_INS = ['orders', 'identity', 'catalog'] as const;
const standIn = (identity: (typeof STAND_INS)[number]) =>
  defineService({ name: `${identity}-stand-in`, identity, migrations: [], setup: () => ({}) });

/** Which stand-in publishes an event type: the service that owns it. */
const producerOf = (type: EventType) => STAND_INS.find((service) => mayPublish(service, type)) ?? 'identity';

export type OrderPaid = EventPayload<'order.paid'>;
export type TicketIssued = EventPayload<'ticket.issued'>;

export interface ScanAnswer {
  success: boolean;
  userName: string | null;
  ticketType: { id: string; name: string; requiresDocument: boolean } | null;
  message: string;
  code: string;
  eventTitle: string | null;
  usedAt?: string;
  sessionId: string | null;
  ticketId: string | null;
  orderId: string | null;
}

/** The refund of a paid order, as orders announces it. */
export function orderRefunded(
  order: OrderPaid,
  reason: EventPayload<'order.refunded'>['reason'] = 'refund',
): EventPayload<'order.refunded'> {
  const { orderId, orderNumber, userId, eventId, amount, buyer, event } = order;
  return { orderId, orderNumber, userId, eventId, reason, amount, buyer, event };
}

/** The buyer's withdrawal from the order, as orders announces it. */
export function withdrawalRequested(order: OrderPaid): EventPayload<'order.withdrawal-requested'> {
  const { orderId, orderNumber, userId, eventId, buyer, event } = order;
  return { orderId, orderNumber, userId, eventId, requestedAt: new Date().toISOString(), buyer, event };
}

export interface IssuedTicket {
  order: OrderPaid;
  issued: TicketIssued;
}

export function orderPaid(overrides: Partial<OrderPaid> = {}): OrderPaid {
  return {
    orderId: randomUUID(),
    orderNumber: `PED-${Math.floor(Math.random() * 1e8)}`,
    userId: randomUUID(),
    eventId: randomUUID(),
    amount: '155.00',
    paidAt: new Date().toISOString(),
    buyer: { name: 'Maria da Silva', email: `maria.${randomUUID().slice(0, 8)}@example.com.br` },
    event: {
      title: 'Workshop de Farmacovigilância',
      date: '2027-03-12T22:00:00.000Z',
      location: 'São Paulo – SP',
    },
    courtesyLinkId: null,
    ...overrides,
  };
}

export { readQrCode as decodeQrDataUrl } from '@ticketing/testkit';

type Service = TestService<TicketsConfig>;

export interface Harness {
  worker: Service;
  verifier: Service;
  producer: TestService<unknown>;
  logs: ReturnType<typeof captureLogs>;
  schema: string;
  busSchema: string;
  admin: { id: string; token: string };
  userToken: string;
  /** Door staff who are not administrators (assigned no event until `assignDoor`). */
  doorStaffToken: string;
  doorStaffId: string;
  /**
   * Announces, as identity does, the full set of events a door staffer may work (the harness's staffer unless
   * `userId` says), and waits until the worker stored it.
   */
  assignDoor(eventIds: string[], userId?: string): Promise<void>;
  /** A courtesy manager who is not an administrator. */
  courtesyManagerToken: string;
  /** Signs a token as identity would. */
  sign: Awaited<ReturnType<typeof createTestIssuer>>['sign'];
  /** Tokens for other administrators. */
  adminToken(id: string): Promise<string>;
  /** Another verifier process on the same schema and bus (stopped with the harness). */
  startVerifier(): Promise<Service>;
  /** Publishes order.paid through the stand-in's outbox; resolves with its envelope. */
  publish(order: OrderPaid): Promise<Envelope>;
  /** Publishes any event through the stand-in's outbox, keyed by its order (or user, or event); resolves with its envelope. */
  emit<T extends EventType>(type: T, payload: EventPayload<T>): Promise<Envelope>;
  /** Waits until the worker has handled these events (their inbox rows are committed). */
  handled(...envelopes: Envelope[]): Promise<void>;
  /** Delivers one envelope again, as a transport redelivering it would. */
  redeliver(envelope: Envelope): Promise<void>;
  /** Publishes order.paid and waits for the ticket it issues. */
  issue(overrides?: Partial<OrderPaid>): Promise<IssuedTicket>;
  verify(body: unknown, options?: { token?: string | null; via?: Service; raw?: string }): Promise<Response>;
  /** Verifies as the administrator and reads the answer (expects a 200). */
  scan(qrCodeData: string, eventId?: string): Promise<ScanAnswer>;
  reset(orderId: string, token?: string | null): Promise<Response>;
  /** The events of a type in the tickets outbox, oldest first. */
  events<
    T extends 'ticket.issued' | 'ticket.checked-in' | 'ticket.reset' | 'ticket.resent' | 'ticket.withdrawal-decided',
  >(
    type: T,
    key?: string,
  ): Promise<EventPayload<T>[]>;
  db: Knex;
  stop(): Promise<void>;
}

/**
 * The tickets worker and verifier in-process on one schema and a bus shared with a stand-in producer,
 * against real PostgreSQL and Redis; logs captured; tokens from a test issuer.
 */
export async function startTickets({
  env: extraEnv = {},
  verifyToken,
}: {
  /** Settings on top of the test defaults, for both processes. */
  env?: Record<string, string>;
  /** Wraps the test issuer's verifier (a session that ends, a role dropped). */
  verifyToken?: (issued: TokenVerifier) => TokenVerifier;
} = {}): Promise<Harness> {
  const schema = uniqueName('tickets');
  const busSchema = uniqueName('bus');
  const logs = captureLogs();
  const issuer = await createTestIssuer();
  const env = { DB_SCHEMA: schema, LOG_LEVEL: 'info', ...extraEnv };
  const options = {
    busSchema,
    env,
    verifyToken: verifyToken ? verifyToken(issuer.verifyToken) : issuer.verifyToken,
    logStream: logs.stream,
  };
  const sources = await Promise.all(STAND_INS.map((service) => startTestService(standIn(service), { busSchema })));
  const sourceOf = (type: EventType) => sources[STAND_INS.indexOf(producerOf(type))]!;
  const [worker, verifier] = await Promise.all([
    startTestService(ticketsWorkerService, options),
    startTestService(ticketsVerifierService, options),
  ]);
  const extra: Service[] = [];
  const transport = createPostgresTransport({
    url: TEST_DATABASE_URL,
    schema: busSchema,
    logger: createLogger('test', 'silent'),
  });
  const admin = { id: randomUUID(), token: '' };
  admin.token = await issuer.sign({ id: admin.id, isAdmin: true, name: 'Portaria' });
  const userToken = await issuer.sign({ isAdmin: false });
  const doorStaffId = randomUUID();
  const doorStaffToken = await issuer.sign({ id: doorStaffId, roles: ['doorStaff'], name: 'Equipe da portaria' });
  const courtesyManagerToken = await issuer.sign({ roles: ['courtesyManager'], name: 'Gestão de cortesias' });

  const request = (service: Service, path: string, body: string | undefined, token: string | null | undefined) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(service.url + path, { method: 'POST', headers, body });
  };

  const harness: Harness = {
    worker,
    verifier,
    producer: sourceOf('order.paid'),
    logs,
    schema,
    busSchema,
    admin,
    userToken,
    doorStaffToken,
    doorStaffId,
    courtesyManagerToken,
    db: verifier.db,
    sign: issuer.sign,
    adminToken: (id) => issuer.sign({ id, isAdmin: true, name: 'Outra Portaria' }),
    async startVerifier() {
      const another = await startTestService(ticketsVerifierService, options);
      extra.push(another);
      return another;
    },
    publish: (order) => harness.emit('order.paid', order),
    async assignDoor(eventIds, userId = doorStaffId) {
      await harness.handled(await harness.emit('user.door-events-changed', { userId, eventIds }));
    },
    emit: (type, payload) => {
      const { orderId, userId, eventId } = payload as { orderId?: string; userId?: string; eventId?: string };
      const from = sourceOf(type);
      return from.db.transaction((trx: Knex.Transaction) =>
        from.outbox.add(trx, type, orderId ?? userId ?? eventId ?? type, payload as never),
      );
    },
    async handled(...envelopes) {
      const ids = envelopes.map((envelope) => envelope.id);
      // Events are handled one after another, and each ticket's QR PNG takes up to a second under jest's module
      // sandbox on a busy machine: the wait grows with the batch.
      await waitFor(async () => (await worker.db('inbox').whereIn('event_id', ids)).length === new Set(ids).size, {
        timeoutMs: 15_000 + 1_500 * ids.length,
      });
    },
    redeliver: (envelope) => {
      // Signed as its producer signed it the first time.
      const signed = signEnvelope(testKeyRing.keys(producerOf(envelope.type as EventType)), envelope);
      return transport.publish([{ topic: envelope.type, key: envelope.key, value: JSON.stringify(signed) }]);
    },
    async issue(overrides = {}) {
      const order = orderPaid(overrides);
      await harness.publish(order);
      const [issued] = await waitFor(async () => {
        const found = await harness.events('ticket.issued');
        const mine = found.filter((event) => event.orderId === order.orderId);
        return mine.length > 0 && mine;
      });
      return { order, issued: issued! };
    },
    verify(body, { token = admin.token, via = verifier, raw } = {}) {
      return request(via, '/api/verify-ticket', raw ?? (body === undefined ? undefined : JSON.stringify(body)), token);
    },
    async scan(qrCodeData, eventId) {
      const response = await harness.verify({ qrCodeData, ...(eventId ? { eventId } : {}) });
      expect(response.status).toBe(200);
      return (await response.json()) as ScanAnswer;
    },
    reset: (orderId, token = admin.token) => request(verifier, `/api/reset-ticket/${orderId}`, undefined, token),
    async events(type, key) {
      const query = verifier.db('outbox').where({ topic: type }).orderBy('seq');
      if (key) query.andWhere({ key });
      const rows = (await query) as { envelope: Envelope }[];
      return rows.map((row) => row.envelope.payload as never);
    },
    async stop() {
      for (const service of [...extra, verifier, worker]) await service.stop();
      await Promise.all(sources.map((source) => source.stop()));
      await transport.close();
      await dropSchemas([schema, busSchema]);
    },
  };
  return harness;
}

export { waitFor };

/** A ticket's row as stored. */
export type TicketRow = Record<string, any>;

/**
 * A ticket's row with its admission to its event's one session as `used_at`, `used_by` and `used_device` (null while
 * not admitted): events no catalog announced have one session, whose id is the event's.
 */
export function withOneSession(row: TicketRow): TicketRow;
export function withOneSession(row: TicketRow | undefined): TicketRow | undefined;
export function withOneSession(row: TicketRow | undefined): TicketRow | undefined {
  if (!row) return row;
  const admission = row.admissions[row.event_id] as { at: string; by: string; device: string | null } | undefined;
  return {
    ...row,
    used_at: admission ? new Date(admission.at) : null,
    used_by: admission?.by ?? null,
    used_device: admission?.device ?? null,
  };
}

/** The rows of the tickets that match, as `withOneSession` reads them. */
export async function ticketRows(db: Knex, where: Record<string, string>): Promise<TicketRow[]> {
  return ((await db('tickets').where(where)) as TicketRow[]).map((row) => withOneSession(row));
}
