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
  return {
    counted(codes: ScanCode[]): void {
      for (const code of codes) readings.inc({ outcome: OUTCOME[code] });
    },
  };
}

export type DoorMetrics = ReturnType<typeof createDoorMetrics>;
