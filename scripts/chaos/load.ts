import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { readQrCode } from '@ticketing/testkit';
import { messages as ordersMessages } from '@ticketing/orders';
import { courtesyMessages } from '@ticketing/proto';
import type { Answer, Client } from './client.ts';
import type { Person, World } from './setup.ts';

/** An order the product answered with 201 (or 200: the buyer's pending one), paid in the sandbox afterwards. */
export interface Purchase {
  orderId: string;
  orderNumber: string;
  asaasPaymentId: string;
  eventId: string;
  /** When the sandbox took the payment. */
  paidAt?: number;
}

export interface Redemption {
  user: string;
  code: string;
  /** The e-mail typed in the form, where the ticket goes. */
  email: string;
}

/** A door reading that admitted a ticket (or whose answer was lost and whose retry found it used). */
export interface Admission {
  ticketId: string;
  orderId: string;
  eventId: string;
  qrCodeData: string;
  /** Shown at the door once more since, and refused as used. */
  readAgain: boolean;
}

/** What the load did and was answered. */
export interface LoadRecord {
  purchases: Map<string, Purchase>;
  soldOut: number;
  redemptions: Redemption[];
  admissions: Map<string, Admission>;
  /** Tickets read again after their admission, each refused as used. */
  rereads: number;
  rounds: number;
  /** Answers the product must never give: a refusal that makes no sense, a ticket let in twice. */
  problems: string[];
}

export function newLoadRecord(): LoadRecord {
  return {
    purchases: new Map(),
    soldOut: 0,
    redemptions: [],
    admissions: new Map(),
    rereads: 0,
    rounds: 0,
    problems: [],
  };
}

export interface Shopper {
  client: Client;
  world: World;
  record: LoadRecord;
  /** Takes the payment of a charge in the sandbox, as the buyer's bank does. */
  pay(purchase: Purchase): Promise<void>;
}

const describe = (answer: { status: number; body: any }) => `${answer.status} ${answer.body?.message ?? ''}`.trim();

/** The longest a buyer keeps trying while told the order is still being processed. */
const IN_PROGRESS_PATIENCE_MS = 120_000;

/**
 * Buys one PIX ticket of `eventId` (one Idempotency-Key for every try, as the checkout does; "still being processed,
 * try again in a moment" is tried again) and pays it.
 */
async function buy({ client, record, pay }: Shopper, buyer: Person, eventId: string): Promise<void> {
  const checkout = { 'idempotency-key': randomBytes(12).toString('hex') };
  const order = () =>
    client.call('POST', '/api/orders', {
      token: buyer.token,
      body: { eventId, paymentMethod: 'pix' },
      headers: checkout,
    });
  const inProgress = (tried: Answer) => tried.status === 409 && tried.body?.message === ordersMessages.orderInProgress;
  const patience = Date.now() + IN_PROGRESS_PATIENCE_MS;
  let answer = await order();
  while (inProgress(answer) && Date.now() < patience) {
    await sleep(2000);
    answer = await order();
  }
  if (answer.status === 201 || answer.status === 200) {
    const { id, orderNumber, asaasPaymentId } = answer.body.order;
    const purchase: Purchase = record.purchases.get(id) ?? { orderId: id, orderNumber, asaasPaymentId, eventId };
    record.purchases.set(id, purchase);
    if (!purchase.paidAt) await pay(purchase);
  } else if (answer.status === 409 && answer.body?.message === ordersMessages.soldOut) {
    record.soldOut++;
  } else {
    record.problems.push(`purchase answered ${describe(answer)}`);
  }
}

/** Redeems a free courtesy with the buyer's account, the ticket going to an address typed in the form. */
async function redeem({ client, record }: Shopper, buyer: Person, code: string): Promise<void> {
  const email = `convidada.${randomBytes(5).toString('hex')}@parceiro.example.com.br`;
  const answer = await client.call('POST', '/api/courtesy/redeem', {
    token: buyer.token,
    body: {
      name: buyer.name,
      email,
      emailConfirm: email,
      cpf: buyer.cpf,
      partnerCompany: 'Laboratório Parceiro S.A.',
      occupation: 'Farmacêutica responsável',
      birthDate: '1991-07-21',
      address: 'Rua Haddock Lobo, 595 — Cerqueira César, São Paulo — SP',
      phone: '(11) 98888-7777',
      code,
    },
  });
  // A retry after an unanswered try finds its own redemption made.
  const lostAnswer =
    answer.status === 409 && answer.retried && answer.body?.message === courtesyMessages.alreadyRedeemed;
  if (answer.status === 201) record.redemptions.push({ user: buyer.email, code, email });
  else if (lostAnswer) record.redemptions.push({ user: buyer.email, code, email: '' });
  else record.problems.push(`redemption answered ${describe(answer)}`);
}

/**
 * The buyer shows the QR code of one paid ticket not yet shown to the door staffer, who reads it at its event's
 * door; and shows one already admitted once more, which must be refused as used.
 */
async function atTheDoor({ client, world, record }: Shopper, buyer: Person, shown: Set<string>): Promise<void> {
  const list = await client.call('GET', '/api/orders?page=1', { token: buyer.token });
  if (list.status !== 200) return void record.problems.push(`orders list answered ${describe(list)}`);
  const ticket = (list.body.orders as { id: string; status: string; qrCodeData: string | null }[]).find(
    (order) => order.status === 'paid' && order.qrCodeData && !shown.has(order.id),
  );
  const again = [...record.admissions.values()].find(
    (admission) => shown.has(admission.orderId) && !admission.readAgain,
  );
  const read = (qrCodeData: string, eventId: string) =>
    client.call('POST', '/api/verify-ticket', { token: world.doorStaff.token, body: { qrCodeData, eventId } });
  if (ticket) {
    shown.add(ticket.id);
    const eventId = record.purchases.get(ticket.id)?.eventId ?? world.main;
    const qrCodeData = readQrCode(ticket.qrCodeData!)!;
    const answer = await read(qrCodeData, eventId);
    const lostAnswer = answer.retried && answer.body?.code === 'already_used';
    if (answer.status === 200 && (answer.body.success || lostAnswer)) {
      const { ticketId } = answer.body;
      record.admissions.set(ticketId, { ticketId, orderId: ticket.id, eventId, qrCodeData, readAgain: false });
    } else {
      record.problems.push(`door reading of a paid ticket answered ${describe(answer)} ${answer.body?.code ?? ''}`);
    }
  }
  if (again) {
    again.readAgain = true;
    const answer = await read(again.qrCodeData, again.eventId);
    if (answer.status === 200 && !answer.body.success && answer.body.code === 'already_used') record.rereads++;
    else record.problems.push(`an admitted ticket read again answered ${describe(answer)} ${answer.body?.code ?? ''}`);
  }
}

/**
 * Each user, until stopped: buys a ticket (the two events in turn), now and then redeems a courtesy, and goes to the
 * door with a ticket; then thinks for a while (a purchase every ~7 s keeps each account within its purchase budget).
 */
export function startLoad(shopper: Shopper) {
  const stopping = new AbortController();
  const users = shopper.world.users.map((buyer, i) => ({
    buyer,
    i,
    shown: new Set<string>(),
    codes: [...shopper.world.linkCodes],
  }));
  const round = async ({ buyer, i, shown, codes }: (typeof users)[number], n: number) => {
    try {
      await buy(shopper, buyer, (n + i) % 2 === 0 ? shopper.world.rush : shopper.world.main);
      if (n % 3 === 1 && codes.length > 0) await redeem(shopper, buyer, codes.shift()!);
      await atTheDoor(shopper, buyer, shown);
    } catch (error) {
      // A request never answered: the client noted it; the user goes on with the next round.
      shopper.record.problems.push(`a round stopped: ${(error as Error).message}`);
    }
    shopper.record.rounds++;
  };
  let rounds = 0;
  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});
  const loops = users.map(async (user) => {
    for (let n = 0; !stopping.signal.aborted; n++) {
      rounds = Math.max(rounds, n + 1);
      await round(user, n);
      await pause(6000 + Math.random() * 2000);
    }
  });
  // A visitor browsing the events all along: what a fault does to the site, moment by moment.
  loops.push(
    (async () => {
      for (let n = 0; !stopping.signal.aborted; n++) {
        const page = `/api/events/${n % 2 ? shopper.world.rush : shopper.world.main}`;
        const browsed = await shopper.client.call('GET', page).catch(() => undefined);
        if (browsed && browsed.status !== 200) shopper.record.problems.push(`event page answered ${describe(browsed)}`);
        await pause(300);
      }
    })(),
  );
  return {
    /** Ends every user's loop after the round under way. */
    async stop(): Promise<void> {
      stopping.abort();
      await Promise.all(loops);
    },
    /** One more round for every user at once. */
    finalRound: () => Promise.all(users.map((user) => round(user, rounds++))),
  };
}
