/** When each fault was under way: from the moment it was caused until the product was seen to recover. */
export interface FaultWindow {
  fault: string;
  start: number;
  end?: number;
}

export function createTimeline() {
  const windows: FaultWindow[] = [];
  return {
    windows,
    /** Marks `fault` under way; the returned function marks it over. */
    begin(fault: string): () => void {
      const window: FaultWindow = { fault, start: Date.now() };
      windows.push(window);
      return () => {
        window.end = Date.now();
      };
    },
    /** The fault under way at some moment between `from` and `to`, if any. */
    faultBetween(from: number, to: number): string | undefined {
      return windows.findLast((window) => window.start <= to && (window.end ?? Infinity) >= from)?.fault;
    },
  };
}

export type Timeline = ReturnType<typeof createTimeline>;
