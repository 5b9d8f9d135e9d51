import type { Metrics } from '@ticketing/platform';
import type { ScanCode } from '@ticketing/proto';
import { Counter } from 'prom-client';

/** How a reading counts on the door's dashboards: online and synced readings alike. */
const OUTCOME: Record<ScanCode, string> = {
  valid: 'admitted',
  already_used: 'duplicate',
  invalid: 'invalid',
  not_found: 'invalid',
  wrong_event: 'wrong_event',
  cancelled: 'cancelled',
  conflict: 'conflict',
};

/** The verifier's door metrics, on the service's registry next to the HTTP and bus ones. */
export function createDoorMetrics(registry: Metrics['registry']) {
  const readings = new Counter({
    name: 'door_readings_total',
    help: 'Readings at the door by outcome (admitted, duplicate, invalid, wrong_event, cancelled, conflict)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of new Set(Object.values(OUTCOME))) readings.inc({ outcome }, 0);
  // Each session's door on its own: a congress's second morning is watched apart from its first.
  const bySession = new Counter({
    name: 'door_session_readings_total',
    help: 'Readings of tickets of ours at the door by session and outcome',
    labelNames: ['session', 'outcome'],
    registers: [registry],
  });
  return {
    counted(counts: { code: ScanCode; sessionId: string | null }[]): void {
      for (const { code, sessionId } of counts) {
        readings.inc({ outcome: OUTCOME[code] });
        if (sessionId) bySession.inc({ session: sessionId, outcome: OUTCOME[code] });
      }
    },
  };
}

export type DoorMetrics = ReturnType<typeof createDoorMetrics>;
