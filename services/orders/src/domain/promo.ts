/**
 * Where a promotional code's price comes from. Courtesy links (with their overridePrice) are the source once they
 * exist; until then no code is known and every code is refused as invalid.
 */
export interface PromoPrices {
  /** The ticket price ("120.00") a code gives for an event, or null when the code does not apply to it. */
  promoPrice(request: { eventId: string; code: string }): Promise<string | null>;
}

export const noPromoPrices: PromoPrices = {
  promoPrice: async () => null,
};
