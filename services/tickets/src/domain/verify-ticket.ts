import type { TraceContext } from '@ticketing/platform';
import {
  decideReading,
  defaultSession,
  trustedClaims as claimsOf,
  type DoorDecision,
  type ScanView,
  type TicketClaims,
} from '@ticketing/proto';
import { insertScans } from '../data/scans-repository.ts';
import {
  admitAndAnnounce,
  admitTickets,
  findTickets,
  type Admission,
  type Ticket,
} from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { messages } from './messages.ts';
import { hasValidSignature } from './qr-code.ts';

/** What the door sees after a reading: the scanner's answer, with the time it was used as a date. */
export interface ScanResult extends Omit<ScanView, 'usedAt'> {
  usedAt: Date | null;
}

export interface ScanRequest {
  qrText: string;
  /** The event the door is checking in; a ticket of another event is refused. */
  doorEventId?: string;
  /** The session of that event the door chose; without it, the one whose door is open. */
  sessionId?: string;
  scannedBy: string;
  /** The name the token gave the person at the door. */
  staffName: string;
  /** The scanner device, when it said. */
  deviceId?: string;
  /** The request the reading came in with, so its check-in event carries the same request id. */
  trace?: TraceContext;
  /**
   * Settles once the reading passes the checks that come before anything of it is recorded (the staffer's budget
   * and event), so its ticket is read meanwhile; a rejection is the reading's answer.
   */
  allowed?: Promise<unknown>;
}

/** The claims of a QR text whose signature checks out against a key in use. */
export const trustedClaims = (deps: Pick<TicketsDeps, 'keys'>, text: string): Promise<TicketClaims | undefined> =>
  claimsOf(text, async (qr) => {
    const key = await deps.keys.verifying(qr.kid);
    return !!key && hasValidSignature(qr, key);
  });

/** The session a reading of `ticket` is for: the one the door chose, else the one whose door is open at `at`. */
export const sessionOfReading = (ticket: Ticket, chosen: string | undefined, at = new Date()): string =>
  chosen ?? defaultSession(ticket.eventSessions, at)!.id;

/** A signed reading as the door rule sees it: the ticket, its admission to the reading's session, the door's event. */
interface SignedReading {
  ticket: Ticket | undefined;
  claims: TicketClaims;
  doorEventId: string | undefined;
  sessionId: string | undefined;
}

/** The door's decision on a signed reading, as the ticket reads now (the rule every door follows, in proto). */
export function decideNow({ ticket, claims, doorEventId, sessionId }: SignedReading): DoorDecision {
  const usedAt = (ticket && sessionId && ticket.admissions[sessionId]?.at) || null;
  return decideReading({
    claims,
    doorEventId,
    ticket: ticket && { ...ticket, usedAt },
    claimedEventTitle: ticket?.eventTitle,
  });
}

const refusal = ({ code, message }: DoorDecision, ticket?: Ticket, sessionId?: string): ScanResult => ({
  success: false,
  code,
  message,
  userName: ticket?.holderName ?? null,
  ticketType: ticket?.ticketType ?? null,
  eventTitle: ticket?.eventTitle ?? null,
  usedAt: code === 'already_used' && sessionId ? (ticket?.admissions[sessionId]?.at ?? null) : null,
  // Another event's ticket was read for none of this door's sessions.
  sessionId: code === 'wrong_event' ? null : ((ticket && sessionId) ?? null),
  ticketId: ticket?.id ?? null,
  orderId: ticket?.orderId ?? null,
});

/** Why a signed ticket was not admitted, read after the admission found no row to change. */
function whyRefused(reading: SignedReading): ScanResult {
  const decision = decideNow(reading);
  // Admissible again by a reset that committed between the admission and this read: the door may just scan again.
  const refused = decision.code === 'valid' ? { code: 'invalid' as const, message: messages.invalid } : decision;
  return refusal(refused, reading.ticket, reading.sessionId);
}

const admittedResult = (admitted: Admission): ScanResult => ({
  success: true,
  code: 'valid',
  message: messages.valid,
  userName: admitted.holderName,
  ticketType: admitted.ticketType,
  eventTitle: admitted.eventTitle,
  usedAt: admitted.usedAt,
  sessionId: admitted.sessionId,
  ticketId: admitted.ticketId,
  orderId: admitted.orderId,
});

/** The ticket.checked-in event of an admission, online or synced. */
export const checkedIn = (admission: Admission, scannedBy: string, trace: TraceContext | undefined) => ({
  type: 'ticket.checked-in' as const,
  key: admission.ticketId,
  trace,
  payload: {
    ticketId: admission.ticketId,
    orderId: admission.orderId,
    eventId: admission.eventId,
    sessionId: admission.sessionId,
    usedAt: admission.usedAt.toISOString(),
    scannedBy,
  },
});

/** What became of a reading: its result, or the refusal of a check it had to pass first. */
export type ReadingOutcome = { result: ScanResult } | { refused: unknown };

/**
 * Checks a group of QR codes read at the doors at about the same moment, and admits each ticket exactly once to the
 * session each reading is for (the one the door chose, else the one whose door is open).
 * Signatures are checked in memory, and the tickets read while the readings' own checks (`allowed`) finish; a reading
 * that fails them is answered with that refusal and nothing of it is recorded. A group of first readings of tickets
 * the door may let in (the common case) is then admitted, recorded and announced in one statement (`admitAtOnce`);
 * any other reading, or one whose ticket changed meanwhile, is decided in a transaction (`verifyInTransaction`).
 */
export async function verifyTickets(deps: TicketsDeps, requests: ScanRequest[]): Promise<ReadingOutcome[]> {
  const signed = await Promise.all(requests.map((request) => trustedClaims(deps, request.qrText)));
  const ids = new Set(signed.flatMap((claim) => (claim ? [claim.ticketId] : [])));
  const [tickets, checks] = await Promise.all([
    findTickets(deps.db, [...ids]),
    Promise.allSettled(requests.map((request) => request.allowed)),
  ]);
  const passed = requests.flatMap((_, i) => (checks[i]!.status === 'fulfilled' ? [i] : []));
  const decided = await decideAll(
    deps,
    passed.map((i) => requests[i]!),
    passed.map((i) => signed[i]),
    tickets,
  );
  const outcomes: ReadingOutcome[] = checks.map((check) => ({ refused: (check as PromiseRejectedResult).reason }));
  passed.forEach((i, n) => (outcomes[i] = { result: decided[n]! }));
  return outcomes;
}

/** Decides the readings that passed their checks (at once where it can, else in a transaction), counted and logged. */
async function decideAll(
  deps: TicketsDeps,
  requests: ScanRequest[],
  claims: (TicketClaims | undefined)[],
  tickets: Map<string, Ticket>,
): Promise<ScanResult[]> {
  const now = new Date();
  const sessions = requests.map((request, i) => {
    const ticket = claims[i] && tickets.get(claims[i].ticketId);
    return ticket && sessionOfReading(ticket, request.sessionId, now);
  });
  const results = await admitAtOnce(deps, requests, claims, sessions, tickets);
  const undecided = requests.flatMap((_, i) => (results[i] ? [] : [i]));
  if (undecided.length > 0) {
    const decided = await verifyInTransaction(
      deps,
      undecided.map((i) => requests[i]!),
      undecided.map((i) => claims[i]),
      undecided.map((i) => sessions[i]),
    );
    undecided.forEach((i, n) => (results[i] = decided[n]));
  }
  deps.doorMetrics.counted(results as ScanResult[]);

  results.forEach((result, i) => {
    const fields = {
      ticketId: claims[i]?.ticketId ?? null,
      code: result!.code,
      scannedBy: requests[i]!.scannedBy,
      doorEventId: requests[i]!.doorEventId ?? null,
      sessionId: result!.sessionId,
      deviceId: requests[i]!.deviceId ?? null,
    };
    deps.logger.info(fields, result!.success ? 'ticket checked in' : 'ticket refused');
  });
  return results as ScanResult[];
}

/**
 * Admits the readings that, as their tickets read now, would be admitted: each the first of its ticket in the group,
 * of the door's event, signed for the ticket's version, valid and not admitted to the reading's session yet. One statement admits them, records them
 * and announces them. The result of each reading admitted; undefined for the others (refused as read, or beaten
 * to its ticket by another door or a change since).
 */
async function admitAtOnce(
  deps: TicketsDeps,
  requests: ScanRequest[],
  claims: (TicketClaims | undefined)[],
  sessions: (string | undefined)[],
  tickets: Map<string, Ticket>,
): Promise<(ScanResult | undefined)[]> {
  const usedAt = new Date();
  const first = new Set<string>();
  const admissions = requests.map((request, i): Admission | undefined => {
    const claim = claims[i];
    const sessionId = sessions[i];
    if (!claim || !sessionId || first.has(claim.ticketId)) return undefined;
    first.add(claim.ticketId);
    const ticket = tickets.get(claim.ticketId);
    const reading = { ticket, claims: claim, doorEventId: request.doorEventId, sessionId };
    if (decideNow(reading).code !== 'valid') return undefined;
    const { id: ticketId, orderId, eventId, holderName, ticketType, eventTitle } = ticket!;
    return { ticketId, orderId, eventId, sessionId, holderName, ticketType, eventTitle, usedAt };
  });
  const expected = requests.flatMap((request, i) => {
    const admission = admissions[i];
    if (!admission) return [];
    const [envelope] = deps.outbox.envelopes([checkedIn(admission, request.scannedBy, request.trace)]);
    return [
      {
        ...admission,
        version: claims[i]!.version,
        scannedBy: request.scannedBy,
        deviceId: request.deviceId ?? null,
        doorEventId: request.doorEventId ?? null,
        staffName: request.staffName,
        envelope: envelope!,
      },
    ];
  });
  const admitted = await admitAndAnnounce(deps.db, usedAt, expected);
  if (admitted.size > 0) deps.outbox.written();
  return admissions.map((admission) =>
    admission && admitted.has(admission.ticketId) ? admittedResult(admission) : undefined,
  );
}

/**
 * Decides readings in one transaction: one conditional UPDATE admits the tickets (the first reading of a ticket in
 * the group is the one that may admit it), then the readings and the ticket.checked-in events are written in one
 * statement each, and one commit makes them durable together.
 */
async function verifyInTransaction(
  deps: TicketsDeps,
  requests: ScanRequest[],
  claims: (TicketClaims | undefined)[],
  sessions: (string | undefined)[],
): Promise<ScanResult[]> {
  const contender = new Map<string, number>();
  claims.forEach((claim, i) => {
    const door = requests[i]!.doorEventId;
    if (claim && sessions[i] && (!door || door === claim.eventId) && !contender.has(claim.ticketId)) {
      contender.set(claim.ticketId, i);
    }
  });

  return deps.db.transaction(async (trx) => {
    const admissions = await admitTickets(
      trx,
      [...contender.values()].map((i) => ({
        ...claims[i]!,
        sessionId: sessions[i]!,
        scannedBy: requests[i]!.scannedBy,
        deviceId: requests[i]!.deviceId ?? null,
      })),
    );
    const admitted = new Map(admissions.map((admission) => [admission.ticketId, admission]));
    const isWinner = (i: number) => {
      const claim = claims[i];
      return !!claim && admitted.has(claim.ticketId) && contender.get(claim.ticketId) === i;
    };
    const refusedIds = claims.flatMap((claim, i) => (claim && !isWinner(i) ? [claim.ticketId] : []));
    const tickets = await findTickets(trx, [...new Set(refusedIds)]);
    const outcome = requests.map((request, i) => {
      const claim = claims[i];
      if (!claim) return refusal({ code: 'invalid', message: messages.invalid });
      if (isWinner(i)) return admittedResult(admitted.get(claim.ticketId)!);
      const ticket = tickets.get(claim.ticketId);
      // A ticket unknown when the group was read may have been issued since: its reading is for the open session.
      const sessionId = sessions[i] ?? (ticket && sessionOfReading(ticket, request.sessionId));
      return whyRefused({ ticket, claims: claim, doorEventId: request.doorEventId, sessionId });
    });
    await insertScans(
      trx,
      requests.map((request, i) => ({
        ticketId: claims[i]?.ticketId ?? null,
        scannedBy: request.scannedBy,
        code: outcome[i]!.code,
        doorEventId: request.doorEventId ?? null,
        sessionId: outcome[i]!.sessionId,
        deviceId: request.deviceId ?? null,
        staffName: request.staffName,
      })),
    );
    await deps.outbox.addAll(
      trx,
      requests.flatMap((request, i) =>
        isWinner(i) ? [checkedIn(admitted.get(claims[i]!.ticketId)!, request.scannedBy, request.trace)] : [],
      ),
    );
    return outcome;
  });
}
