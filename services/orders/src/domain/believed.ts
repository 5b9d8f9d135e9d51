/**
 * What the catalog just said of each event, believed for `believedMs`: while a crowd keeps pressing 'Comprar', the
 * answer serves every buyer instead of being asked again for each (that it sold out: neither identity nor the catalog
 * is called for the refusal; its first type: the catalog is asked once in a while). A change meanwhile (a spot given
 * back, the types reordered) is followed once the belief lapses.
 */
export function believedMemory<V>(believedMs: number) {
  const known = new Map<string, { value: V; until: number }>();
  function get(eventId: string): V | undefined {
    const entry = known.get(eventId);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    known.delete(eventId);
    return undefined;
  }
  return {
    get,
    has: (eventId: string) => get(eventId) !== undefined,
    remember(eventId: string, value: V): void {
      known.set(eventId, { value, until: Date.now() + believedMs });
    },
  };
}

export type BelievedMemory<V> = ReturnType<typeof believedMemory<V>>;
