import { useEffect, useState } from 'react';

/** The identity service lets a new verification code go out once every 30 seconds per address. */
export const RESEND_COOLDOWN_SECONDS = 30;

/** A countdown that locks a button: `remaining` whole seconds, 0 when free; `start()` locks it again. */
export function useCooldown(seconds: number, { startLocked = false } = {}) {
  const [until, setUntil] = useState(() => (startLocked ? Date.now() + seconds * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);

  return {
    remaining: Math.max(0, Math.ceil((until - now) / 1000)),
    start() {
      const current = Date.now();
      setNow(current);
      setUntil(current + seconds * 1000);
    },
  };
}
