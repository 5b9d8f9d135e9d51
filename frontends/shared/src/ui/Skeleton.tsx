import type { CSSProperties } from 'react';
import { cx } from './cx.ts';

/** A grey placeholder of the content's shape while it loads. */
export function Skeleton({ className, style }: { className?: string; style?: CSSProperties }) {
  return <span className={cx('skeleton', className)} style={style} aria-hidden="true" />;
}

/** Bars standing for lines of text, each sized as its line (`{ width: '40%' }`). */
export function SkeletonLines({ lines }: { lines: CSSProperties[] }) {
  return lines.map((style, index) => <Skeleton key={index} style={style} />);
}
