/**
 * The first type each event sells (what a purchase naming none buys), believed for `believedMs`: through a rush,
 * the catalog is asked once in a while, not once per buyer. An organiser reordering the types is followed after it.
 */
export function firstTypeMemory(believedMs: number) {
  const known = new Map<string, { typeId: string; until: number }>();
  return {
    get(eventId: string): string | undefined {
      const entry = known.get(eventId);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry.typeId;
      known.delete(eventId);
      return undefined;
    },
    remember(eventId: string, typeId: string): void {
      known.set(eventId, { typeId, until: Date.now() + believedMs });
    },
  };
}

export type FirstTypeMemory = ReturnType<typeof firstTypeMemory>;
