import type { DoorCountsView } from '@ticketing/proto';
import { Skeleton } from '@ticketing/shared';
import { Progress } from '@ticketing/shared/primitives';
import { DeviceList } from './DeviceList.tsx';
import { LiveStatus } from './LiveStatus.tsx';
import { recentPace } from './pace.ts';
import { PerMinuteChart } from './PerMinuteChart.tsx';
import { useDoorCounts } from './useDoorCounts.ts';
import './door-panel.css';

/**
 * How the door is going: admitted / expected, arrivals per minute and per device, live. `compact`: one line under
 * the phone scanner's camera; otherwise the admin's large panel.
 */
export function DoorPanel({ eventId, compact = false }: { eventId: string; compact?: boolean }) {
  const { counts, live } = useDoorCounts(eventId);
  return compact ? <CompactPanel counts={counts} live={live} /> : <FullPanel counts={counts} live={live} />;
}

interface PanelProps {
  counts: DoorCountsView | null;
  live: boolean;
}

function CompactPanel({ counts, live }: PanelProps) {
  return (
    <section className="door-panel door-panel--compact" aria-label="Entradas do evento">
      {counts ? (
        <p className="door-panel__line">
          <span>
            Entraram <strong>{counts.admitted}</strong> de {counts.expected}
          </span>
          <span className="door-panel__pace">{recentPace(counts.perMinute)}/min</span>
        </p>
      ) : (
        <Skeleton className="door-panel__line-skeleton" />
      )}
      <LiveStatus live={live} />
    </section>
  );
}

function FullPanel({ counts, live }: PanelProps) {
  return (
    <div className="door-panel door-panel--full">
      <section className="door-panel__card door-panel__totals" aria-labelledby="door-totals">
        <div className="door-panel__card-head">
          <h2 id="door-totals">Entradas</h2>
          <LiveStatus live={live} />
        </div>
        {counts ? (
          <>
            <p className="door-panel__total">
              <span className="door-panel__total-label">Entraram</span>{' '}
              <strong className="door-panel__admitted">{counts.admitted}</strong>{' '}
              <span className="door-panel__expected">de {counts.expected}</span>
            </p>
            {/* An event without valid tickets still draws an empty bar. */}
            <Progress value={counts.admitted} max={Math.max(1, counts.expected)} label="Entraram do total esperado" />
            <p className="door-panel__facts">
              <span>Faltam {Math.max(0, counts.expected - counts.admitted)}</span>
              <span>{recentPace(counts.perMinute)} por minuto (últimos 5 min)</span>
            </p>
          </>
        ) : (
          <Skeleton className="door-panel__total-skeleton" />
        )}
      </section>
      <section className="door-panel__card" aria-labelledby="door-per-minute">
        <h2 id="door-per-minute">Chegadas por minuto</h2>
        {counts ? <PerMinuteChart perMinute={counts.perMinute} /> : <Skeleton className="door-panel__chart-skeleton" />}
      </section>
      <section className="door-panel__card" aria-labelledby="door-devices">
        <h2 id="door-devices">Por dispositivo</h2>
        {counts ? <DeviceList devices={counts.devices} /> : <Skeleton className="door-panel__chart-skeleton" />}
      </section>
    </div>
  );
}
