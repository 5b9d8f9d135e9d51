/** Sound and vibration for each verdict, where the phone allows them; silently nothing where it does not. */

let audio: AudioContext | undefined;

function audioContext(): AudioContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  audio ??= new AudioContext();
  return audio;
}

/** Browsers keep sound off until the user touches the page: any touch on the scanner turns it on. */
export function enableSound() {
  void audioContext()
    ?.resume()
    .catch(() => {});
}

function tone(context: AudioContext, frequency: number, start: number, duration: number) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.3, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + duration);
}

/** One short high beep for a holder let in; two low ones, and a longer buzz, for a refusal. */
export function signalVerdict(admitted: boolean) {
  navigator.vibrate?.(admitted ? 120 : [200, 100, 200]);
  try {
    const context = audioContext();
    if (!context || context.state !== 'running') return;
    const now = context.currentTime;
    if (admitted) {
      tone(context, 1320, now, 0.15);
    } else {
      tone(context, 220, now, 0.18);
      tone(context, 220, now + 0.25, 0.18);
    }
  } catch {
    // No sound on this device: the overlay and the vibration still tell.
  }
}
