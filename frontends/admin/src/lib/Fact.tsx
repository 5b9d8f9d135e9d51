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

/** A `dl className="facts"` of counts, each under its label, in the order given. */
export function CountFacts({ className, counts }: { className: string; counts: Record<string, ReactNode> }) {
  return (
    <dl className={`facts ${className}`}>
      {Object.entries(counts).map(([label, count]) => (
        <Fact key={label} label={label} numeric>
          {count}
        </Fact>
      ))}
    </dl>
  );
}
