import { trace } from '@ticketing/platform';
import type { TicketsDeps } from './deps.ts';
import { verifyTickets, type ScanRequest, type ScanResult } from './verify-ticket.ts';

export interface Door {
  verify(request: Omit<ScanRequest, 'trace'>): Promise<ScanResult>;
}

interface Reading {
  request: ScanRequest;
  resolve(result: ScanResult): void;
  reject(error: unknown): void;
}

/**
 * Readings are verified in groups: one transaction and one durable commit for each group instead of one per reading.
 * A reading goes at once while fewer than `concurrentGroups` groups are being verified (a quiet door waits for
 * nothing); at a busy opening, the readings that arrive meanwhile wait for the next free turn and go together, up to
 * `maxGroup` a group, so the busier the doors, the more each commit carries.
 */
export function createDoor(deps: TicketsDeps, { concurrentGroups = 4, maxGroup = 64 } = {}): Door {
  const waiting: Reading[] = [];
  let verifying = 0;
  let scheduled = false;

  function sendWhileFree(): void {
    scheduled = false;
    while (waiting.length > 0 && verifying < concurrentGroups) {
      const group = waiting.splice(0, maxGroup);
      verifying++;
      verifyTickets(
        deps,
        group.map((reading) => reading.request),
      )
        .then(
          (outcomes) =>
            group.forEach((reading, i) => {
              const outcome = outcomes[i]!;
              if ('result' in outcome) reading.resolve(outcome.result);
              else reading.reject(outcome.refused);
            }),
          (error: unknown) => group.forEach((reading) => reading.reject(error)),
        )
        .finally(() => {
          verifying--;
          sendWhileFree();
        });
    }
  }

  return {
    verify: (request) =>
      new Promise((resolve, reject) => {
        // A refused check is the reading's answer, taken by its group: handled from now, however late that is.
        request.allowed?.catch(() => {});
        waiting.push({ request: { ...request, trace: trace.current() }, resolve, reject });
        // Readings parsed in the same turn of the event loop still go as one group.
        if (!scheduled && verifying < concurrentGroups) {
          scheduled = true;
          setImmediate(sendWhileFree);
        }
      }),
  };
}
