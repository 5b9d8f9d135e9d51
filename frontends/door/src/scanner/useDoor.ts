import { useCallback, useEffect, useRef, useState } from 'react';
import { admitFromLookUp, readTicket, type DoorPlace } from '../door/reading.ts';
import { useDoorSync } from '../door/useDoorSync.ts';
import { documentNotice, type Verdict } from '../door/verdict.ts';
import { signalVerdict } from './feedback.ts';

/**
 * How long a verdict stays on screen (spec §4): short for a holder let in, longer for a refusal to be read, and
 * longest for a holder whose document is to be checked.
 */
const SHOWN_MS = { admitted: 800, refused: 1500, document: 3000 };
/** After its verdict, the same code is ignored for this long: the holder is still in front of the camera. */
const SAME_CODE_IGNORED_MS = 3000;

const unreadable: Verdict = {
  admitted: false,
  code: 'invalid',
  message: 'Não foi possível verificar o ingresso. Leia novamente.',
  holder: null,
  eventTitle: null,
  ticketId: null,
  orderId: null,
  ticketType: null,
};

/**
 * The door's reading loop: one reading at a time, the verdict on screen for its time, then scanning again.
 * Readings while one is being decided or a verdict is shown are ignored, and so is the same code again during the
 * following 3 s. Each verdict's time from the decoded frame to the screen is measured (`door:verdict`).
 */
export function useDoor(
  eventId: string | undefined,
  sessionId: string | undefined,
  eventTitle: (eventId: string) => string | null,
) {
  const { sync, status } = useDoorSync(eventId);
  const [verifying, setVerifying] = useState(false);
  const [shown, setShown] = useState<{ verdict: Verdict; by: 'server' | 'device' } | null>(null);
  const busy = useRef(false);
  const lastCode = useRef<{ text: string; ignoredUntil: number } | null>(null);
  const hideTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(hideTimer.current), []);

  useEffect(() => {
    if (!shown) return;
    // Measured once the overlay is painted: a task queued from the next frame runs after that frame's paint.
    requestAnimationFrame(() =>
      setTimeout(() => performance.measure('door:verdict', { start: 'door:read', detail: { by: shown.by } })),
    );
  }, [shown]);

  /** Decides one reading (`key`: the code read, or the ticket admitted from the look-up) and shows its verdict. */
  const present = useCallback(
    async (text: string, decide: () => Promise<{ verdict: Verdict; by: 'server' | 'device' }>) => {
      if (busy.current) return;
      if (lastCode.current?.text === text && Date.now() < lastCode.current.ignoredUntil) return;
      busy.current = true;
      performance.mark('door:read');
      setVerifying(true);
      const result = await decide().catch(() => ({
        // The device's storage failed (full, or refused by the browser): the door says so and scans on.
        verdict: unreadable,
        by: 'device' as const,
      }));
      setVerifying(false);
      setShown(result);
      signalVerdict(result.verdict.admitted);
      hideTimer.current = window.setTimeout(
        () => {
          setShown(null);
          lastCode.current = { text, ignoredUntil: Date.now() + SAME_CODE_IGNORED_MS };
          busy.current = false;
        },
        documentNotice(result.verdict)
          ? SHOWN_MS.document
          : result.verdict.admitted
            ? SHOWN_MS.admitted
            : SHOWN_MS.refused,
      );
    },
    [],
  );

  const read = useCallback(
    (text: string) => {
      // Every event, or an event and its session: once an event is chosen, readings wait for its session.
      const place: DoorPlace | undefined = !eventId
        ? { eventId: undefined, sessionId: undefined }
        : sessionId
          ? { eventId, sessionId }
          : undefined;
      return place ? present(text, () => readTicket(text, place, sync, eventTitle)) : undefined;
    },
    [present, eventId, sessionId, sync, eventTitle],
  );
  /** Admits a guest the look-up found (an event is chosen whenever the look-up is shown). */
  const admit = useCallback(
    (ticketId: string) =>
      eventId && sessionId
        ? present(`ticket:${ticketId}`, () => admitFromLookUp(ticketId, { eventId, sessionId }, sync))
        : undefined,
    [present, eventId, sessionId, sync],
  );

  return { read, admit, verifying, verdict: shown?.verdict ?? null, status };
}
