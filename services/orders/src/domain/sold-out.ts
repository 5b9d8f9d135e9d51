/**
 * Events the catalog just said are sold out, remembered for `believedMs`: while a crowd keeps pressing 'Comprar', each
 * refusal costs neither identity nor the catalog a call. A spot given back meanwhile is on offer again after that.
 */
export function soldOutMemory(believedMs: number) {
  const until = new Map<string, number>();
  return {
    remember(eventId: string): void {
      until.set(eventId, Date.now() + believedMs);
    },
    has(eventId: string): boolean {
      const end = until.get(eventId);
      if (end === undefined) return false;
      if (end > Date.now()) return true;
      until.delete(eventId);
      return false;
    },
  };
}

export type SoldOutMemory = ReturnType<typeof soldOutMemory>;
