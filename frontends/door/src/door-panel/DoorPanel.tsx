import type { DoorCountsView, EventSession } from '@ticketing/proto';
import { Skeleton } from '@ticketing/shared';
import { Progress } from '@ticketing/shared/primitives';
import { sessionLabels } from '../door/door-session.ts';
import { DeviceList } from './DeviceList.tsx';
import { LiveStatus } from './LiveStatus.tsx';
import { recentPace } from './pace.ts';
import { PerMinuteChart } from './PerMinuteChart.tsx';
import { useDoorCounts } from './useDoorCounts.ts';
import './door-panel.css';

interface DoorPanelProps {
  eventId: string;
  /** The session followed; undefined: the one whose door is open. */
  sessionId: string | undefined;
  /** The event's sessions, named in the panel when there are several. */
  sessions: EventSession[];
  compact?: boolean;
}

/**
 * How the door of a session is going: admitted / expected, arrivals per minute and per device, live, and each
 * session's admitted for an event of several. `compact`: one line under the phone scanner's camera; otherwise the
 * admin's large panel.
 */
export function DoorPanel({ eventId, sessionId, sessions, compact = false }: DoorPanelProps) {
  const { counts, live } = useDoorCounts(eventId, sessionId);
  const labels = sessions.length > 1 ? sessionLabels(sessions) : undefined;
  const props = { counts, live, labels };
  return compact ? <CompactPanel {...props} /> : <FullPanel {...props} />;
}

interface PanelProps {
  counts: DoorCountsView | null;
  live: boolean;
  /** Each session's name, for an event of several. */
  labels: Map<string, string> | undefined;
}

function CompactPanel({ counts, live, labels }: PanelProps) {
  return (
    <section className="door-panel door-panel--compact" aria-label="Entradas do evento">
      {counts ? (
        <p className="door-panel__line">
          <span>
            {labels && `${labels.get(counts.sessionId)}: `}
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

function FullPanel({ counts, live, labels }: PanelProps) {
  return (
    <div className="door-panel door-panel--full">
      <section className="door-panel__card door-panel__totals" aria-labelledby="door-totals">
        <div className="door-panel__card-head">
          <h2 id="door-totals">{labels && counts ? `Entradas — ${labels.get(counts.sessionId)}` : 'Entradas'}</h2>
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
      {labels && counts && (
        <section className="door-panel__card" aria-labelledby="door-sessions">
          <h2 id="door-sessions">Por sessão</h2>
          <SessionList sessions={counts.sessions} expected={counts.expected} labels={labels} />
        </section>
      )}
    </div>
  );
}

/** Each session's admitted, in the order of the sessions, drawn as the per-device list is. */
function SessionList({
  sessions,
  expected,
  labels,
}: {
  sessions: DoorCountsView['sessions'];
  expected: number;
  labels: Map<string, string>;
}) {
  return (
    <ol className="door-devices">
      {sessions.map(({ sessionId, admitted }) => (
        <li key={sessionId} className="door-devices__item">
          <span className="door-devices__name">{labels.get(sessionId)}</span>
          <span className="door-devices__count">
            {admitted} de {expected}
          </span>
        </li>
      ))}
    </ol>
  );
}
