import { useCallback, useEffect, useRef, useState } from 'react';
import { signalVerdict } from './feedback.ts';
import { verifyTicket, type Verdict } from './verify.ts';

/** How long a verdict stays on screen (spec §4): short for a holder let in, longer for a refusal to be read. */
const SHOWN_MS = { admitted: 800, refused: 1500 };
/** After its verdict, the same code is ignored for this long: the holder is still in front of the camera. */
const SAME_CODE_IGNORED_MS = 3000;

/**
 * The door's reading loop: one verification at a time, the verdict on screen for its time, then scanning again.
 * Readings while a verification is in flight or a verdict is shown are ignored, and so is the same code again
 * during the following 3 s.
 */
export function useDoor(eventId: string | undefined) {
  const [verifying, setVerifying] = useState(false);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const busy = useRef(false);
  const lastCode = useRef<{ text: string; ignoredUntil: number } | null>(null);
  const hideTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(hideTimer.current), []);

  const read = useCallback(
    async (text: string) => {
      if (busy.current) return;
      if (lastCode.current?.text === text && Date.now() < lastCode.current.ignoredUntil) return;
      busy.current = true;
      setVerifying(true);
      const result = await verifyTicket(text, eventId);
      setVerifying(false);
      setVerdict(result);
      signalVerdict(result.admitted);
      hideTimer.current = window.setTimeout(
        () => {
          setVerdict(null);
          lastCode.current = { text, ignoredUntil: Date.now() + SAME_CODE_IGNORED_MS };
          busy.current = false;
        },
        result.admitted ? SHOWN_MS.admitted : SHOWN_MS.refused,
      );
    },
    [eventId],
  );

  return { read, verifying, verdict };
}
