import type { ReactNode } from 'react';
import { cx } from './cx.ts';

/** warning: pending (yellow); success: confirmed (green); danger: none left or destructive (red). */
export type BadgeTone = 'neutral' | 'brand' | 'accent' | 'success' | 'warning' | 'danger';

export function Badge({
  tone = 'neutral',
  className,
  children,
}: {
  tone?: BadgeTone;
  className?: string;
  children: ReactNode;
}) {
  return <span className={cx('badge', `badge--${tone}`, className)}>{children}</span>;
}
