import { cx } from './cx.ts';

interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Announced to screen readers; without it the spinner is decoration (e.g. inside a busy button). */
  label?: string;
}

export function Spinner({ size = 'md', label }: SpinnerProps) {
  const spinner = <span className={cx('spinner', `spinner--${size}`)} aria-hidden="true" />;
  if (!label) return spinner;
  return (
    <span className="spinner-status" role="status">
      {spinner}
      <span>{label}</span>
    </span>
  );
}
