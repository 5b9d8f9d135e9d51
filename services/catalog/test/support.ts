import { randomUUID } from 'node:crypto';
import type { EventView } from '@ticketing/proto';
import { defineService } from '@ticketing/platform';
import {
  captureLogs,
  createTestIssuer,
  serviceAuthorization,
  startTestService,
  uniqueName,
  type TestService,
} from '@ticketing/testkit';
import { catalogService } from '../src/index.ts';

export const DAY = 24 * 60 * 60 * 1000;

/** The site the catalog's links point to. */
export const SITE = 'https://ingressos.example.com.br';

/** An ISO instant `days` from now (negative for the past). */
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

export interface Catalog {
  service: TestService<unknown>;
  logs: ReturnType<typeof captureLogs>;
  adminToken: string;
  userToken: string;
  /** A token from the same issuer, e.g. for a role the two above lack. */
  sign: Awaited<ReturnType<typeof createTestIssuer>>['sign'];
  /** `/internal` paths are called as orders unless `caller` names another service (null: no service token). */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; token?: string; caller?: string | null },
  ): Promise<Response>;
  /** Creates an event as an administrator through the API and returns what it answered. */
  createEvent(fields?: Record<string, unknown>): Promise<EventView>;
  /** The `event.changed` payloads written for an event, oldest first. */
  changes(eventId: string): Promise<Record<string, unknown>[]>;
}

/** The catalog running in-process against real PostgreSQL and Redis, with an issuer for admin and user tokens. */
export async function startCatalog({ busSchema }: { busSchema?: string } = {}): Promise<Catalog> {
  const issuer = await createTestIssuer();
  const logs = captureLogs();
  const service = await startTestService(catalogService, {
    busSchema,
    verifyToken: issuer.verifyToken,
    logStream: logs.stream,
    env: { LOG_LEVEL: 'info', PUBLIC_URL: SITE },
  });
  const adminToken = await issuer.sign({ isAdmin: true, name: 'Admin' });
  const userToken = await issuer.sign({ isAdmin: false });

  const request: Catalog['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const caller = options.caller === undefined ? 'orders' : options.caller;
    if (path.startsWith('/internal') && caller) headers.authorization = await serviceAuthorization(caller, 'catalog');
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(service.url + path, { method, headers, body });
  };

  return {
    service,
    logs,
    adminToken,
    userToken,
    sign: issuer.sign,
    request,
    async createEvent(fields = {}) {
      const response = await request('POST', '/api/events', {
        token: adminToken,
        body: {
          title: `Evento ${randomUUID()}`,
          description: 'Um encontro para profissionais da indústria farmacêutica.',
          date: inDays(30),
          location: 'São Paulo – SP',
          price: '150.00',
          ...fields,
        },
      });
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as EventView;
    },
    async changes(eventId) {
      const rows = await service.db('outbox').where({ key: eventId }).orderBy('seq');
      return rows.map((row: { topic: string; envelope: { type: string; payload: Record<string, unknown> } }) => {
        expect(row.topic).toBe('event.changed');
        expect(row.envelope.type).toBe('event.changed');
        return row.envelope.payload;
      });
    },
  };
}

/** Stands in for the orders service: it only publishes what orders publishes. */
const ordersStandIn = defineService({ name: 'orders', migrations: [], setup: () => ({}) });

/** The catalog and a stand-in for the orders service publishing on the catalog's bus, started for the test file. */
export function catalogHearingOrders() {
  const running = {} as { catalog: Catalog; producer: TestService<unknown> };
  beforeAll(async () => {
    const busSchema = uniqueName('bus');
    running.catalog = await startCatalog({ busSchema });
    running.producer = await startTestService(ordersStandIn, { busSchema });
  });
  afterAll(async () => {
    await running.producer?.stop();
    await running.catalog?.service.stop();
  });
  return running;
}
