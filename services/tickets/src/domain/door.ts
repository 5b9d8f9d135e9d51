import { trace } from '@ticketing/platform';
import type { TicketsDeps } from './deps.ts';
import { verifyTickets, type ScanRequest, type ScanResult } from './verify-ticket.ts';

export interface Door {
  verify(request: Omit<ScanRequest, 'trace'>): Promise<ScanResult>;
}

/**
 * Readings that arrive within `windowMs` of each other (busy doors at an event's opening) are verified together:
 * one transaction and one durable commit for the group instead of one per reading. A quiet door waits at most
 * `windowMs` more; a group is sent at once when it reaches `maxGroup`.
 */
export function createDoor(deps: TicketsDeps, { windowMs = 2, maxGroup = 64 } = {}): Door {
  let waiting: { request: ScanRequest; resolve(result: ScanResult): void; reject(error: unknown): void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  function send(): void {
    clearTimeout(timer);
    timer = undefined;
    const group = waiting;
    waiting = [];
    verifyTickets(
      deps,
      group.map((reading) => reading.request),
    ).then(
      (results) => group.forEach((reading, i) => reading.resolve(results[i]!)),
      (error: unknown) => group.forEach((reading) => reading.reject(error)),
    );
  }

  return {
    verify: (request) =>
      new Promise((resolve, reject) => {
        waiting.push({ request: { ...request, trace: trace.current() }, resolve, reject });
        if (waiting.length >= maxGroup) send();
        else timer ??= setTimeout(send, windowMs);
      }),
  };
}
