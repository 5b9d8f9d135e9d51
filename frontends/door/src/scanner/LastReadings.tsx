import { useEffect, useState } from 'react';
import { Button, useResetTicket } from '@ticketing/shared';
import { KEPT_READINGS, lastReadings, type StoredReading } from '../door/db.ts';
import { clockTime } from '../door/verdict.ts';

/**
 * 'Resetar Ingresso': an admin lets a used ticket in again (a guest who left and came back, a wrong reading), to the
 * session of the reading.
 */
function ResetTicket({ orderId, sessionId }: { orderId: string; sessionId: string | undefined }) {
  const reset = useResetTicket(orderId, { errorTitle: 'Erro ao resetar ingresso', sessionId });
  return (
    <Button size="sm" variant="outline" onClick={() => reset.mutate()} disabled={reset.isPending}>
      Resetar Ingresso
    </Button>
  );
}

/** This device's last readings, newest first: who, the verdict and when; admins may reset an admitted ticket. */
export function LastReadings({ version, mayReset }: { version: number; mayReset: boolean }) {
  const [readings, setReadings] = useState<StoredReading[]>([]);
  useEffect(() => {
    let left = false;
    void lastReadings(KEPT_READINGS).then((found) => left || setReadings(found));
    return () => {
      left = true;
    };
  }, [version]);

  if (readings.length === 0) return null;
  // A titled section as the back office's door staff list is one: alike in shape, not in what they hold.
  return (
    <section className="last-readings" aria-labelledby="last-readings-title">
      <h2 id="last-readings-title" className="last-readings__title">
        Últimas leituras
      </h2>
      <ul className="last-readings__list">
        {readings.map((reading) => (
          <li key={reading.readingId} className="last-readings__item">
            <span className={reading.admitted ? 'last-readings__mark--admitted' : 'last-readings__mark--refused'}>
              {reading.admitted ? '✓' : '✕'}
            </span>
            <span className="last-readings__who">
              <strong>{reading.holder ?? 'Ingresso não identificado'}</strong>
              <span>{reading.admitted ? 'Entrada liberada' : reading.message}</span>
            </span>
            <time dateTime={reading.readAt}>{clockTime(reading.readAt)}</time>
            {mayReset && reading.orderId && (reading.code === 'valid' || reading.code === 'already_used') && (
              <ResetTicket orderId={reading.orderId} sessionId={reading.sessionId ?? undefined} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
