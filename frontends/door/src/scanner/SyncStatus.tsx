import { Link } from '@ticketing/shared/router';
import type { EventSession } from '@ticketing/proto';
import { sessionLabels } from '../door/door-session.ts';
import type { DoorStatus } from '../door/sync.ts';
import { doorTexts } from '../door/verdict.ts';

const readingsCount = (count: number) => `${count} ${count === 1 ? 'leitura' : 'leituras'}`;

/**
 * How the device stands with the server: offline and what it still has to send, a session to renew, and tickets
 * admitted to a session on two devices while offline, each named by its session when the event has several (`sessions`).
 * Ready to read without internet once the event's list and the door's own code (`codeKept`, by its service worker)
 * are on the device.
 */
export function SyncStatus({
  status,
  codeKept,
  sessions,
}: {
  status: DoorStatus;
  codeKept: boolean;
  sessions: EventSession[];
}) {
  if (!status.loaded) return null;
  const labels = sessions.length > 1 ? sessionLabels(sessions) : undefined;
  // A refused session reaches the server no more than a dropped network does.
  const offline = !status.online || status.expired;
  const pending = offline || status.queued > 0;
  return (
    <div className="door-status">
      {pending && (
        <p className={offline ? 'door-status__badge door-status__badge--offline' : 'door-status__badge'} role="status">
          {offline
            ? `offline — ${readingsCount(status.queued)} a sincronizar`
            : `Sincronizando ${readingsCount(status.queued)}`}
        </p>
      )}
      {status.ready && codeKept && !pending && <p className="door-status__ready">Pronto para ler sem internet</p>}
      {status.expired && (
        <p className="door-status__session" role="alert">
          Sua sessão expirou: a leitura continua sem internet e as leituras ficam guardadas neste aparelho.{' '}
          <Link to="/login">Entre novamente</Link> para sincronizá-las.
        </p>
      )}
      {status.conflicts.length > 0 && (
        <ul className="door-status__conflicts" aria-label="Conflitos">
          {status.conflicts.map((conflict) => (
            <li key={`${conflict.ticketId} ${conflict.sessionId}`}>
              {doorTexts.conflict(
                conflict.holderName,
                conflict.admissions.map((admission) => admission.at),
                labels?.get(conflict.sessionId),
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
