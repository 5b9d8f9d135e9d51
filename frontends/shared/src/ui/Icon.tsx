import type { ReactNode } from 'react';
import { iconStroke } from './icon-stroke.ts';

interface IconProps {
  /** The drawing's lines. */
  d: string;
  /** A circle of the drawing: its centre and radius. */
  circle?: readonly [cx: number, cy: number, r: number];
  /** Any other shape of the drawing. */
  children?: ReactNode;
  size?: number;
  strokeWidth?: number;
}

/** An icon of the site: a line drawing on a 24 × 24 grid, decorative (the text beside it says the same). */
export function Icon({ d, circle, children, size = 20, strokeWidth = iconStroke.strokeWidth }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" {...iconStroke} strokeWidth={strokeWidth}>
      {children}
      {circle && <circle cx={circle[0]} cy={circle[1]} r={circle[2]} />}
      <path d={d} />
    </svg>
  );
}
