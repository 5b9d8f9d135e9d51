import type { ReactNode } from 'react';

/** One fact of a `dl className="facts"`: its label, then its value; a count or a code is `numeric`. */
export function Fact({ label, numeric = false, children }: { label: string; numeric?: boolean; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={numeric ? 'numeric' : undefined}>{children}</dd>
    </div>
  );
}
