import { randomUUID } from 'node:crypto';
import {
  captureLogs,
  createTestIssuer,
  dropSchemas,
  makeCpf,
  serviceAuthorization,
  publishAsOwner,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
import { defineService } from '@ticketing/platform';
import type { EventPayload, EventType, EventView, Role } from '@ticketing/proto';
import { catalogService } from '@ticketing/catalog';
import { courtesyService } from '../src/index.ts';

export { waitFor, makeCpf };

export const DAY = 24 * 60 * 60 * 1000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
export const SITE = 'https://ingressos.example';

/** A JSON answer, read loosely: the assertions say what it must be. */
export const json = (response: Response): Promise<any> => response.json();

/** Stands in for the services courtesy hears (orders, identity): writes their events to its outbox, as they do. */
const producer = defineService({ name: 'producer', migrations: [], setup: () => ({}) });

export interface Caller {
  id: string;
  token: string;
}

/**
 * Courtesy running in-process with the real catalog (the spots free links hold) on one bus, against real
 * PostgreSQL and Redis, with an issuer for admin and user tokens.
 */
export async function startCourtesy(env: Record<string, string> = {}) {
  const issuer = await createTestIssuer();
  const logs = captureLogs();
  const busSchema = uniqueName('bus');
  const catalog = await startTestService(catalogService, { busSchema, verifyToken: issuer.verifyToken });
  const start = (schema?: string) =>
    startTestService(courtesyService, {
      busSchema,
      verifyToken: issuer.verifyToken,
      logStream: logs.stream,
      env: {
        LOG_LEVEL: 'info',
        CATALOG_URL: catalog.url,
        PUBLIC_URL: SITE,
        MASS_SEND_POLL_MS: '100',
        ...(schema ? { DB_SCHEMA: schema } : {}),
        ...env,
      },
    });
  let courtesy: TestService<unknown> = await start();
  const schemaInUse = courtesy.schema;
  const source = await startTestService(producer, { busSchema });

  /** An administrator who manages courtesies, or a guest. */
  async function caller(isAdmin: boolean): Promise<Caller> {
    const id = randomUUID();
    const roles: Role[] = isAdmin ? ['admin', 'courtesyManager'] : [];
    return { id, token: await issuer.sign({ id, roles, name: isAdmin ? 'Admin' : 'Convidada' }) };
  }
  const admin = await caller(true);

  /** `/internal` paths are called as the service that calls them in production (mail for files, else orders). */
  async function call(method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (path.startsWith('/internal/'))
      headers.authorization = await serviceAuthorization(
        path.startsWith('/internal/attachments') ? 'mail' : 'orders',
        'courtesy',
      );
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(courtesy.url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  return {
    get service() {
      return courtesy;
    },
    catalog,
    busSchema,
    logs,
    admin,
    issuer,
    call,
    user: () => caller(false),
    /** Stops the courtesy process and starts another on the same schema (a crash or a deploy). */
    async restart() {
      await courtesy.close();
      courtesy = await start(schemaInUse);
    },
    async createEvent(fields: Record<string, unknown> = {}): Promise<EventView> {
      const response = await fetch(`${catalog.url}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
        body: JSON.stringify({
          title: `Workshop ${randomUUID().slice(0, 8)}`,
          description: 'Boas práticas de fabricação.',
          date: inDays(30),
          location: 'São Paulo – SP',
          price: '150.00',
          ...fields,
        }),
      });
      if (response.status !== 201) throw new Error(`event not created: ${await response.text()}`);
      return (await response.json()) as EventView;
    },
    async attendees(eventId: string): Promise<number> {
      return (await catalog.db('events').where({ id: eventId }).first()).current_attendees;
    },
    async createLink(body: Record<string, unknown>, token = admin.token) {
      return call('POST', '/api/courtesy-links', { token, body });
    },
    /** Publishes an event the way its producer does (outbox, relay, bus, its owner's signature); resolves with its envelope. */
    publish<T extends EventType>(type: T, payload: EventPayload<T>): Promise<{ id: string }> {
      return publishAsOwner(source, type, type, payload);
    },
    /** Waits until courtesy has handled an event (its inbox row is committed). */
    handled: (event: { id: string }) =>
      waitFor(async () => (await courtesy.db('inbox').where({ event_id: event.id })).length === 1),
    /** The events of a type courtesy wrote to its outbox, oldest first. */
    async published(type: string): Promise<Record<string, any>[]> {
      const rows = await courtesy.db('outbox').where({ topic: type }).orderBy('seq');
      return rows.map((row: { envelope: { payload: Record<string, any> } }) => row.envelope.payload);
    },
    async stop() {
      await source.stop();
      await courtesy.stop();
      await catalog.stop();
      await dropSchemas([schemaInUse, busSchema]);
    },
  };
}

export type Courtesy = Awaited<ReturnType<typeof startCourtesy>>;

/** A redemption form as the page sends it, valid unless fields are overridden. */
export function redemptionForm(code: string, fields: Record<string, unknown> = {}) {
  return {
    name: 'Maria Convidada',
    email: 'maria@example.com',
    emailConfirm: 'maria@example.com',
    cpf: makeCpf(),
    partnerCompany: 'Farmacêutica Parceira',
    occupation: 'Gerente de qualidade',
    birthDate: '1990-05-17',
    address: 'Rua das Flores, 123 – São Paulo',
    phone: '(11) 98765-4321',
    code,
    ...fields,
  };
}
