import { randomUUID } from 'node:crypto';
import type { EventView } from '@ticketing/proto';
import { makeCpf, paymentConfirmed, type Buyer, type Harness } from './support.ts';

/** What the back office's tests do to orders: pay them as payments announces it, redeem courtesies, scan tickets. */
export function backOffice(h: Harness) {
  const asAdmin = (path: string) => h.request('GET', path, { token: h.adminToken });

  /** The provider confirms the order's charge, with its net when told. */
  async function pay(orderId: string, payment: { paidAt?: string; netValue?: string } = {}) {
    await paymentConfirmed(h, orderId, payment);
    expect((await h.orderRow(orderId)).status).toBe('paid');
  }

  /** A courtesy of the event redeemed by `who`; answers its order id. */
  async function courtesy(who: Buyer, event: EventView): Promise<string> {
    const attendeeId = randomUUID();
    await h.handled(
      await h.publish('courtesy.redeemed', {
        redemptionId: randomUUID(),
        linkId: randomUUID(),
        attendeeId,
        userId: who.id,
        eventId: event.id,
        attendee: { name: who.name, email: who.email, cpf: makeCpf() },
        event: { title: event.title, date: event.date, location: event.location },
      }),
    );
    return (await h.orders.db('orders').where({ courtesy_attendee_id: attendeeId }).first()).id;
  }

  async function checkIn(orderId: string, usedAt = new Date().toISOString()) {
    const row = await h.orderRow(orderId);
    await h.handled(
      await h.publish('ticket.checked-in', {
        ticketId: randomUUID(),
        orderId,
        eventId: row.event_id,
        sessionId: row.event_id,
        usedAt,
        scannedBy: randomUUID(),
      }),
    );
  }

  async function reset(orderId: string, resetAt = new Date().toISOString()) {
    await h.handled(
      await h.publish('ticket.reset', {
        ticketId: randomUUID(),
        orderId,
        resetBy: randomUUID(),
        resetAt,
        sessionId: null,
        firstUsedAt: null,
      }),
    );
  }

  return { asAdmin, pay, courtesy, checkIn, reset };
}
