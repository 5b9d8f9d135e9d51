import * as RadixProgress from '@radix-ui/react-progress';
import { cx } from './cx.ts';

interface ProgressProps {
  /** How much is done, from 0 to `max`. */
  value: number;
  max?: number;
  /** What is progressing, for screen readers ('Progresso do envio'). */
  label: string;
  className?: string;
}

/** A determinate progress bar; screen readers hear the label and the percentage. */
export function Progress({ value, max = 100, label, className }: ProgressProps) {
  const done = Math.min(max, Math.max(0, value));
  const percent = max > 0 ? (done / max) * 100 : 0;
  return (
    <RadixProgress.Root
      className={cx('progress', className)}
      value={done}
      max={max}
      aria-label={label}
      getValueLabel={() => `${Math.round(percent)}%`}
    >
      <RadixProgress.Indicator className="progress__indicator" style={{ transform: `translateX(${percent - 100}%)` }} />
    </RadixProgress.Root>
  );
}
