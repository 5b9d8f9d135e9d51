import { useState } from 'react';
import { iconStroke, toast } from '@ticketing/shared';
import type { RunningCamera } from './camera.ts';

/** Lanterna: lights a dark entrance, where the camera's track lets the browser switch its torch. */
export function TorchToggle({ torch }: { torch: NonNullable<RunningCamera['torch']> }) {
  const [on, setOn] = useState(false);
  const [switching, setSwitching] = useState(false);

  async function toggle() {
    setSwitching(true);
    try {
      await torch.switch(!on);
      setOn(!on);
    } catch {
      toast({ title: 'Lanterna indisponível', description: 'O aparelho não deixou acender a lanterna.' });
    } finally {
      setSwitching(false);
    }
  }

  return (
    <button
      type="button"
      className="scanner__torch"
      aria-pressed={on}
      disabled={switching}
      onClick={() => void toggle()}
    >
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" {...iconStroke}>
        <path d="M8 2h8v4l-2 4v12h-4V10L8 6z" />
        <path d="M8 6h8" />
      </svg>
      Lanterna
    </button>
  );
}
