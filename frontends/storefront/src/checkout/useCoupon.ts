import { useMutation } from '@tanstack/react-query';
import type { CouponQuote } from '@ticketing/proto';
import { api, isApiError, OFFLINE_MESSAGE } from '@ticketing/shared';

/**
 * The coupon typed at checkout: 'Aplicar' asks the server what it takes off at this event (`GET
 * /api/coupons/:code/quote`); a refusal keeps the server's message ('Cupom esgotado'); 'Remover' forgets it.
 */
export function useCoupon(eventId: string) {
  const quote = useMutation({
    mutationFn: (code: string) =>
      api<CouponQuote>(
        `/coupons/${encodeURIComponent(code.trim().toUpperCase())}/quote?eventId=${encodeURIComponent(eventId)}`,
      ),
  });
  return {
    applied: quote.data ?? null,
    checking: quote.isPending,
    refusal: quote.error ? (isApiError(quote.error) ? quote.error.message : OFFLINE_MESSAGE) : null,
    apply: (code: string) => quote.mutate(code),
    remove: () => quote.reset(),
  };
}

export type CouponState = ReturnType<typeof useCoupon>;
