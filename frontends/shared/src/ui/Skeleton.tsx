import type { CSSProperties } from 'react';
import { cx } from './cx.ts';

/** A grey placeholder of the content's shape while it loads. */
export function Skeleton({ className, style }: { className?: string; style?: CSSProperties }) {
  return <span className={cx('skeleton', className)} style={style} aria-hidden="true" />;
}
