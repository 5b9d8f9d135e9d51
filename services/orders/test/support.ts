import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import Koa from 'koa';
import { Router } from '@koa/router';
import { defineService, type Knex } from '@ticketing/platform';
import {
  captureLogs,
  createTestIssuer,
  dropSchemas,
  makeCpf,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
export { makeCpf };
import {
  chargeRequestSchema,
  chargesQuerySchema,
  type ChargeList,
  courtesyMessages,
  EVENT_OWNERS,
  paymentsMessages,
  type ChargeRequest,
  type ChargeRefundAnswer,
  type ChargeRefundView,
  type ChargeStatusView,
  type ChargeView,
  couponMessages,
  type CouponQuote,
  type EventPayload,
  type InvoiceView,
  type EventType,
  type EventView,
  type PromoQuote,
} from '@ticketing/proto';
import { catalogService } from '@ticketing/catalog';
import { ordersService, type OrdersConfig } from '../src/index.ts';

export { waitFor };

/** A JSON answer, read loosely: the assertions say what it must be. */
export const json = (response: Response): Promise<any> => response.json();

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function listen(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(request: NodeJS.ReadableStream): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text ? JSON.parse(text) : undefined;
}

export interface StandInUser {
  id: string;
  name: string;
  email: string;
  cpf: string | null;
  phone: string | null;
  emailVerified: boolean;
}

/** Identity's `GET /internal/users/:id`: every user it was told about; unknown ids are 404. */
export async function startIdentityStandIn() {
  const users = new Map<string, StandInUser>();
  const calls: string[] = [];
  let down = false;
  const router = new Router();
  router.get('/internal/users/:id', (ctx) => {
    calls.push(ctx.params.id!);
    if (down) {
      ctx.status = 500;
      ctx.body = { message: 'Erro interno' };
      return;
    }
    const user = users.get(ctx.params.id!);
    ctx.status = user ? 200 : 404;
    ctx.body = user ?? { message: 'Usuário não encontrado' };
  });
  const server = await listen(new Koa().use(router.routes() as unknown as Koa.Middleware));
  return {
    ...server,
    users,
    calls,
    setDown(value: boolean) {
      down = value;
    },
  };
}

/** 'garbled' answers 200 with a body the charge's contract rejects. */
export type ChargeBehaviour = 'ok' | 'refuse' | 'down' | 'garbled';

export interface PaymentsCall {
  action: 'charge' | 'check' | 'refund' | 'read';
  orderId: string;
  body?: unknown;
}

/**
 * Payments' internal API as orders calls it: one charge per order id, check and refund. A paid boleto's refund waits
 * for the payer's bank details, as the provider's does; a refused one answers `refusal` in payments' words. Each
 * charge is listed with its installments, its nota fiscal (`invoices`, as a test sets it) and its refund.
 */
export async function startPaymentsStandIn() {
  const charges = new Map<string, { request: ChargeRequest; view: ChargeView }>();
  const refunds = new Map<string, ChargeRefundView>();
  const invoices = new Map<string, InvoiceView>();
  const calls: PaymentsCall[] = [];
  const paid = new Set<string>();
  const behaviour = {
    charge: 'ok' as ChargeBehaviour,
    /** How long a charge takes to be answered, as one waiting its turn at the provider. */
    chargeMs: 0,
    check: 'ok' as 'ok' | 'down',
    refund: 'ok' as ChargeBehaviour,
    read: 'ok' as 'ok' | 'down',
    /** The provider's words when `refund` is 'refuse'. */
    refusal: 'Saldo insuficiente para estorno',
  };
  const reads = new Router();
  // How to pay orders made before: each named order's charge, as payments reads them from its own store.
  reads.get('/internal/charges', (ctx) => {
    const { orderIds } = chargesQuerySchema.parse(ctx.query);
    for (const orderId of orderIds) calls.push({ action: 'read', orderId });
    if (behaviour.read === 'down') {
      ctx.status = 503;
      ctx.body = { message: 'Serviço indisponível' };
      return;
    }
    ctx.body = {
      charges: orderIds.flatMap((orderId) => {
        const charge = charges.get(orderId);
        if (!charge) return [];
        const { installments = 1 } = charge.request;
        return [
          {
            orderId,
            ...charge.view,
            installments,
            invoice: invoices.get(orderId) ?? null,
            refund: refunds.get(orderId) ?? null,
          },
        ];
      }),
    } satisfies ChargeList;
  });
  const router = new Router({ prefix: '/internal/charges/:orderId' });

  router.put('/', async (ctx) => {
    const orderId = ctx.params.orderId!;
    const body = await readJson(ctx.req);
    calls.push({ action: 'charge', orderId, body });
    if (behaviour.chargeMs > 0) await delay(behaviour.chargeMs);
    const parsed = chargeRequestSchema.safeParse(body);
    if (!parsed.success) {
      ctx.status = 400;
      ctx.body = { message: `pedido de cobrança inválido: ${parsed.error.issues[0]?.path.join('.')}` };
      return;
    }
    if (behaviour.charge === 'garbled') {
      ctx.body = { paymentId: 'pay_garbled', providerStatus: 42 };
      return;
    }
    if (behaviour.charge !== 'ok') {
      ctx.status = behaviour.charge === 'refuse' ? 422 : 502;
      ctx.body = {
        message:
          behaviour.charge === 'refuse' ? paymentsMessages.providerRefused : paymentsMessages.providerUnavailable,
      };
      return;
    }
    const existing = charges.get(orderId);
    if (existing) {
      ctx.body = existing.view;
      return;
    }
    const paymentId = `pay_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const method = parsed.data.method;
    const view: ChargeView = {
      paymentId,
      providerStatus: 'PENDING',
      pixQrCode:
        method === 'pix'
          ? 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
          : null,
      pixPayload: method === 'pix' ? `00020126580014br.gov.bcb.pix0136${paymentId}5204000053039865802BR` : null,
      boletoUrl: method === 'boleto' ? `https://sandbox.asaas.com/b/pdf/${paymentId}` : null,
      boletoLine: method === 'boleto' ? '23790001246004123456789012345678912340000015500' : null,
      invoiceUrl: `https://sandbox.asaas.com/i/${paymentId}`,
    };
    charges.set(orderId, { request: parsed.data, view });
    ctx.body = view;
  });

  router.post('/check', (ctx) => {
    const orderId = ctx.params.orderId!;
    calls.push({ action: 'check', orderId });
    const charge = charges.get(orderId);
    if (behaviour.check === 'down') {
      ctx.status = 502;
      ctx.body = { message: paymentsMessages.providerUnavailable };
    } else if (!charge) {
      ctx.status = 404;
      ctx.body = { message: paymentsMessages.chargeNotFound };
    } else {
      const isPaid = paid.has(orderId);
      const status: ChargeStatusView = {
        paymentId: charge.view.paymentId,
        providerStatus: isPaid ? 'RECEIVED' : 'PENDING',
        paid: isPaid,
      };
      ctx.body = status;
    }
  });

  router.post('/refund', (ctx) => {
    const orderId = ctx.params.orderId!;
    calls.push({ action: 'refund', orderId });
    if (behaviour.refund !== 'ok') {
      const refused = behaviour.refund === 'refuse';
      ctx.status = refused ? 422 : 502;
      const said = refused ? paymentsMessages.refundRefused(behaviour.refusal) : paymentsMessages.providerUnavailable;
      ctx.body = { message: said };
      return;
    }
    const charge = charges.get(orderId);
    if (!charge) {
      ctx.status = 404;
      ctx.body = { message: paymentsMessages.chargeNotFound };
      return;
    }
    const { paymentId } = charge.view;
    const refund: ChargeRefundView =
      refunds.get(orderId) ??
      (charge.request.method === 'boleto'
        ? { status: 'awaiting_bank_details', bankDetailsUrl: `https://sandbox.asaas.com/refund/${paymentId}` }
        : { status: 'refunded', bankDetailsUrl: null });
    refunds.set(orderId, refund);
    const providerStatus = refund.status === 'refunded' ? 'REFUNDED' : 'REFUND_IN_PROGRESS';
    ctx.body = { paymentId, providerStatus, paid: false, refund } satisfies ChargeRefundAnswer;
  });

  const server = await listen(
    new Koa().use(reads.routes() as unknown as Koa.Middleware).use(router.routes() as unknown as Koa.Middleware),
  );
  return {
    ...server,
    charges,
    refunds,
    invoices,
    calls,
    paid,
    behaviour,
    callsFor: (orderId: string, action?: PaymentsCall['action']) =>
      calls.filter((call) => call.orderId === orderId && (action === undefined || call.action === action)),
  };
}

export interface StandInPromoLink {
  id: string;
  code: string;
  eventId: string;
  overridePrice: string;
  /** The type its ticket is of; null for a link made before links named one. */
  ticketType: PromoQuote['ticketType'];
  ticketCount: number;
  isActive: boolean;
}

export interface CourtesyCall {
  action: 'quote' | 'take' | 'release' | 'take-coupon' | 'release-coupon';
  code?: string;
  eventId?: string;
  orderId?: string;
  ticketTypeIds?: string[];
}

export interface StandInCoupon extends CouponQuote {
  eventId: string | null;
  maxUses: number | null;
  /** A refusal courtesy answers whatever the use (an expired coupon, one not valid yet), in its words. */
  refusal: string | null;
}

/**
 * Courtesy's internal API for promotional codes: the link a code names for an event, one use per order (taken
 * again for the same order it is the same use), given back on request. `behaviour` makes it not answer: 'down'
 * answers 503 without doing anything; a 'lost' take takes the use and then fails to answer. `beforeTake` runs
 * before a use is taken, so a test can let something happen in between.
 */
export async function startCourtesyStandIn() {
  const links = new Map<string, StandInPromoLink>();
  /** Order id → the link whose use it holds. */
  const uses = new Map<string, string>();
  const calls: CourtesyCall[] = [];
  const behaviour = {
    quote: 'ok' as 'ok' | 'down',
    take: 'ok' as 'ok' | 'down' | 'lost',
    release: 'ok' as 'ok' | 'down',
  };
  const hooks: { beforeTake?: (orderId: string) => Promise<void> } = {};
  const coupons = new Map<string, StandInCoupon>();
  /** Order id → the coupon whose use it holds. */
  const couponUses = new Map<string, string>();
  const couponUsesOf = (couponId: string) =>
    [...couponUses].filter(([, coupon]) => coupon === couponId).map(([orderId]) => orderId);
  const usesOf = (linkId: string) => [...uses].filter(([, link]) => link === linkId).map(([orderId]) => orderId);
  const usable = (code: string, eventId: unknown) => {
    const link = links.get(code.toUpperCase());
    return link && link.isActive && link.eventId === eventId ? link : undefined;
  };
  const answer = (link: StandInPromoLink): PromoQuote => ({
    linkId: link.id,
    overridePrice: link.overridePrice,
    ticketType: link.ticketType,
  });
  const unavailable = (ctx: Koa.Context) => {
    ctx.status = 503;
    ctx.body = { message: 'Serviço indisponível' };
  };
  const router = new Router();

  router.get('/internal/promo-links/:code', (ctx) => {
    const code = ctx.params.code!;
    calls.push({ action: 'quote', code, eventId: String(ctx.query.eventId) });
    if (behaviour.quote === 'down') return unavailable(ctx);
    const link = usable(code, ctx.query.eventId);
    if (!link || usesOf(link.id).length >= link.ticketCount) {
      ctx.status = 404;
      ctx.body = { message: courtesyMessages.invalidCode };
      return;
    }
    ctx.body = answer(link);
  });

  router.put('/internal/promo-uses/:orderId', async (ctx) => {
    const orderId = ctx.params.orderId!;
    const body = (await readJson(ctx.req)) as { code?: string; eventId?: string };
    calls.push({ action: 'take', orderId, code: body.code, eventId: body.eventId });
    if (behaviour.take === 'down') return unavailable(ctx);
    await hooks.beforeTake?.(orderId);
    const held = uses.get(orderId);
    const link = held
      ? [...links.values()].find((candidate) => candidate.id === held)
      : usable(body.code ?? '', body.eventId);
    if (!link) {
      ctx.status = 404;
      ctx.body = { message: courtesyMessages.invalidCode };
      return;
    }
    if (!held && usesOf(link.id).length >= link.ticketCount) {
      ctx.status = 409;
      ctx.body = { message: courtesyMessages.exhausted };
      return;
    }
    uses.set(orderId, link.id);
    if (behaviour.take === 'lost') {
      ctx.status = 500;
      ctx.body = { message: 'Erro interno' };
      return;
    }
    ctx.body = answer(link);
  });

  router.delete('/internal/promo-uses/:orderId', (ctx) => {
    const orderId = ctx.params.orderId!;
    calls.push({ action: 'release', orderId });
    if (behaviour.release === 'down') return unavailable(ctx);
    ctx.body = { released: uses.delete(orderId) };
  });

  // Coupons: one use per order (the same use when asked again), refused as courtesy refuses them.
  router.put('/internal/coupon-uses/:orderId', async (ctx) => {
    const orderId = ctx.params.orderId!;
    const body = (await readJson(ctx.req)) as { code?: string; eventId?: string; ticketTypeIds?: string[] };
    calls.push({
      action: 'take-coupon',
      orderId,
      code: body.code,
      eventId: body.eventId,
      ticketTypeIds: body.ticketTypeIds,
    });
    if (behaviour.take === 'down') return unavailable(ctx);
    const held = couponUses.get(orderId);
    const coupon = held
      ? [...coupons.values()].find((candidate) => candidate.couponId === held)
      : coupons.get(String(body.code).toUpperCase());
    if (!coupon || (coupon.eventId !== null && coupon.eventId !== body.eventId)) {
      ctx.status = 404;
      ctx.body = { message: couponMessages.invalid };
      return;
    }
    if (!held && coupon.refusal) {
      ctx.status = 422;
      ctx.body = { message: coupon.refusal };
      return;
    }
    if (!held && coupon.maxUses !== null && couponUsesOf(coupon.couponId).length >= coupon.maxUses) {
      ctx.status = 409;
      ctx.body = { message: couponMessages.usedUp };
      return;
    }
    couponUses.set(orderId, coupon.couponId);
    const { eventId: _eventId, maxUses: _maxUses, refusal: _refusal, ...quote } = coupon;
    ctx.body = quote satisfies CouponQuote;
  });

  router.delete('/internal/coupon-uses/:orderId', (ctx) => {
    const orderId = ctx.params.orderId!;
    calls.push({ action: 'release-coupon', orderId });
    if (behaviour.release === 'down') return unavailable(ctx);
    ctx.body = { released: couponUses.delete(orderId) };
  });

  const server = await listen(new Koa().use(router.routes() as unknown as Koa.Middleware));
  return {
    ...server,
    links,
    uses,
    calls,
    behaviour,
    hooks,
    usesOf,
    couponUses,
    couponUsesOf,
    callsFor: (orderId: string, action?: CourtesyCall['action']) =>
      calls.filter((call) => call.orderId === orderId && (action === undefined || call.action === action)),
    /** A coupon (of the event, or of every event), taking `percentOff` % or `amountOff` reais off. */
    addCoupon(fields: Partial<StandInCoupon>): StandInCoupon {
      const coupon: StandInCoupon = {
        couponId: randomUUID(),
        code: `CUPOM${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`,
        percentOff: null,
        amountOff: null,
        ticketTypeIds: [],
        eventId: null,
        maxUses: null,
        refusal: null,
        ...fields,
      };
      coupons.set(coupon.code, coupon);
      return coupon;
    },
    /** A promotional link of the event, with its price and uses. */
    addLink(fields: Partial<StandInPromoLink> & Pick<StandInPromoLink, 'eventId'>): StandInPromoLink {
      const link: StandInPromoLink = {
        id: randomUUID(),
        code: `PROMO${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`,
        overridePrice: '80.00',
        ticketType: null,
        ticketCount: 1,
        isActive: true,
        ...fields,
      };
      links.set(link.code, link);
      return link;
    },
  };
}

/**
 * Stands in for a service that publishes what orders consumes: writes events to its outbox, as it does, signed with
 * that service's key (only an event type's owner may publish it).
 */
const producer = (owner: string) =>
  defineService({ name: 'producer', identity: owner, migrations: [], setup: () => ({}) });

export interface Buyer {
  id: string;
  name: string;
  email: string;
  token: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export type Harness = Awaited<ReturnType<typeof startOrders>>;

/**
 * The orders service in-process against real PostgreSQL and Redis, with the real catalog, stand-ins for identity,
 * payments and courtesy, and a producer on its bus; functions that drive it and read its store, outbox and logs.
 * The catalog hears orders' events only with `catalogOnBus` (otherwise a test releases spots itself).
 */
export async function startOrders({
  env = {},
  catalogOnBus = false,
}: { env?: Record<string, string>; catalogOnBus?: boolean } = {}) {
  const issuer = await createTestIssuer();
  const logs = captureLogs();
  const busSchema = uniqueName('bus');
  const catalog = await startTestService(catalogService, {
    verifyToken: issuer.verifyToken,
    env: { DB_POOL_MAX: '10' },
    ...(catalogOnBus ? { busSchema } : {}),
  });
  const identity = await startIdentityStandIn();
  const payments = await startPaymentsStandIn();
  const courtesy = await startCourtesyStandIn();
  /** One stand-in per owning service, started when first needed. */
  const sources = new Map<string, ReturnType<typeof startTestService>>();
  const sourceOf = (type: EventType) => {
    const owner = EVENT_OWNERS[type][0];
    if (!sources.has(owner)) sources.set(owner, startTestService(producer(owner), { busSchema }));
    return sources.get(owner)!;
  };
  const serviceEnv = {
    LOG_LEVEL: 'info',
    CATALOG_URL: catalog.url,
    PAYMENTS_URL: payments.url,
    IDENTITY_URL: identity.url,
    COURTESY_URL: courtesy.url,
    ORDER_EXPIRY_SWEEP_MS: '0',
    DB_POOL_MAX: '10',
    ...env,
  };
  const orders: TestService<OrdersConfig> = await startTestService(ordersService, {
    busSchema,
    verifyToken: issuer.verifyToken,
    logStream: logs.stream,
    env: serviceEnv,
  });
  const adminToken = await issuer.sign({ isAdmin: true, name: 'Admin' });

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(orders.url + path, { method, headers, body });
  }

  /** A user identity knows (verified unless told otherwise), with a token for them. */
  async function buyer(fields: Partial<StandInUser> = {}): Promise<Buyer & StandInUser> {
    const id = fields.id ?? randomUUID();
    const user: StandInUser = {
      id,
      name: 'Maria da Silva',
      email: `maria.${id.slice(0, 8)}@exemplo.com.br`,
      cpf: makeCpf(),
      phone: '(31) 98765-4321',
      emailVerified: true,
      ...fields,
    };
    identity.users.set(id, user);
    return { ...user, token: await issuer.sign({ id, email: user.email, name: user.name }) };
  }

  async function createEvent(fields: Record<string, unknown> = {}): Promise<EventView> {
    const response = await fetch(`${catalog.url}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Workshop de Farmacovigilância ${randomUUID().slice(0, 6)}`,
        description: 'Um encontro para profissionais da indústria farmacêutica.',
        date: inDays(30),
        location: 'Belo Horizonte – MG',
        price: '150.00',
        ...fields,
      }),
    });
    if (response.status !== 201) throw new Error(`create event failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as EventView;
  }

  const buy = (who: Buyer, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request('POST', '/api/orders', { token: who.token, body, headers });

  /** The payloads of the events orders wrote, oldest first, optionally of one type and one order. */
  async function events(type?: string, orderId?: string): Promise<Record<string, unknown>[]> {
    const query = orders.db('outbox').orderBy('seq');
    if (orderId) query.where({ key: orderId });
    const rows = await query;
    return rows
      .filter((row: { topic: string }) => type === undefined || row.topic === type)
      .map((row: { topic: string; envelope: { type: string; payload: Record<string, unknown> } }) => {
        expect(row.envelope.type).toBe(row.topic);
        return { type: row.topic, ...row.envelope.payload };
      });
  }

  return {
    orders,
    busSchema,
    catalog,
    identity,
    payments,
    courtesy,
    logs,
    issuer,
    adminToken,
    request,
    buyer,
    createEvent,
    buy,
    events,
    orderRow: (id: string) => orders.db('orders').where({ id }).first(),
    ordersOf: (userId: string) => orders.db('orders').where({ user_id: userId }).orderBy('created_at'),
    eventRow: (id: string) => catalog.db('events').where({ id }).first(),
    holds: (eventId: string) => catalog.db('holds').where({ event_id: eventId }).orderBy('created_at'),
    lines: (msg: string) => logs.lines.filter((line) => line.msg === msg),
    /** Publishes an event the way its producer does (outbox, relay, bus); resolves with its envelope id. */
    async publish<T extends EventType>(type: T, payload: EventPayload<T>): Promise<{ id: string }> {
      const { orderId, userId } = payload as { orderId?: string; userId?: string };
      const source = await sourceOf(type);
      return source.db.transaction((trx: Knex.Transaction) =>
        source.outbox.add(trx, type, orderId ?? userId ?? type, payload as never),
      );
    },
    /** Waits until a service has handled an event (its inbox row is committed); orders unless another is named. */
    handled: (event: { id: string }, by: { db: Knex } = orders) =>
      waitFor(async () => (await by.db('inbox').where({ event_id: event.id })).length === 1),
    /** Another replica of orders on the same schema and bus (closed by the caller, which keeps the schema). */
    replica: (extra: Record<string, string>) =>
      startTestService(ordersService, {
        busSchema,
        verifyToken: issuer.verifyToken,
        logStream: logs.stream,
        env: { ...serviceEnv, DB_SCHEMA: orders.schema, ...extra },
      }),
    async stop() {
      await orders.stop();
      for (const source of sources.values()) await (await source).stop();
      await catalog.stop();
      await identity.close();
      await payments.close();
      await courtesy.close();
      await dropSchemas([busSchema]);
    },
  };
}

export interface Bought {
  order: { id: string; orderNumber: string; status: string; amount: string; asaasPaymentId: string | null } & Record<
    string,
    unknown
  >;
  payment: Record<string, unknown>;
}

/** Buys a ticket that must succeed and answers the order. */
export async function bought(harness: Harness, who: Buyer, eventId: string, paymentMethod = 'pix'): Promise<Bought> {
  const response = await harness.buy(who, { eventId, paymentMethod });
  if (response.status !== 201) throw new Error(`purchase failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Bought;
}

/** The provider confirming the order's charge in full (now, unless `paidAt` says when); handled by orders. */
export async function paymentConfirmed(
  harness: Harness,
  orderId: string,
  { paidAt = new Date().toISOString(), netValue }: { paidAt?: string; netValue?: string } = {},
): Promise<void> {
  const row = await harness.orderRow(orderId);
  await harness.handled(
    await harness.publish('payment.confirmed', {
      orderId,
      paymentId: row.asaas_payment_id,
      providerStatus: 'RECEIVED',
      value: row.amount,
      ...(netValue ? { netValue } : {}),
      paidAt,
    }),
  );
}

/**
 * Tickets answering the order's withdrawal as its worker does: the ticket voided (`cancelled`), or admitted at the
 * door first (`admitted`, at `usedAt`); handled by orders.
 */
export async function ticketAnswersWithdrawal(
  harness: Harness,
  orderId: string,
  outcome: 'cancelled' | 'admitted',
  usedAt = new Date(),
): Promise<void> {
  const [asked] = await harness.events('order.withdrawal-requested', orderId);
  if (!asked) throw new Error(`no withdrawal of order ${orderId} was announced`);
  const {
    type: _type,
    requestedAt: _requestedAt,
    ...order
  } = asked as EventPayload<'order.withdrawal-requested'> & {
    type: string;
  };
  const answer = await harness.publish('ticket.withdrawal-decided', {
    ...order,
    ticketId: randomUUID(),
    outcome,
    usedAt: outcome === 'admitted' ? usedAt.toISOString() : null,
  });
  await harness.handled(answer);
}

/**
 * Every place in a schema where one of `values` is stored: each text, character or JSON column of each table is read
 * as text and searched, case-insensitively. Answers `table.column: value` for each hit.
 */
export async function storedAnywhere(db: Knex, schema: string, values: string[]): Promise<string[]> {
  const columns = (await db('information_schema.columns')
    .where({ table_schema: schema })
    .whereIn('data_type', ['text', 'character varying', 'character', 'json', 'jsonb'])
    .select('table_name', 'column_name')) as { table_name: string; column_name: string }[];
  expect(columns.length).toBeGreaterThan(0);
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const value of values) {
      const { rows } = await db.raw(
        'select exists(select 1 from ??.?? where position(lower(?) in lower(??::text)) > 0) as hit',
        [schema, table, value, column],
      );
      if (rows[0].hit) hits.push(`${schema}.${table}.${column}: ${value}`);
    }
  }
  return hits;
}
