import { useEffect } from 'react';
import { isApiError, toast } from '@ticketing/shared';
import { useCourtesyLink } from '../courtesy/queries.ts';
import type { Promo } from '../checkout/types.ts';

export interface PromoState {
  /** The code's price applies to this event. */
  promo: Promo | null;
  /** The code is still being checked: the price is not known yet. */
  checking: boolean;
  /** The code is a free courtesy for this event: it is redeemed at /cortesia, not bought. */
  courtesyCode: string | null;
}

/** The `?promo=` code of an event page, checked against the courtesy links; a code that does not apply says why. */
export function usePromo(code: string | null, eventId: string): PromoState {
  const link = useCourtesyLink(code);
  const forThisEvent = link.data?.eventId === eventId;
  const refusal = link.isError
    ? isApiError(link.error)
      ? link.error.message
      : 'Não foi possível verificar o código promocional. O preço mostrado é o normal.'
    : link.data && !forThisEvent
      ? 'Este código promocional não é válido para este evento.'
      : null;

  useEffect(() => {
    if (refusal) toast({ title: 'Link inválido', description: refusal, variant: 'destructive' });
  }, [refusal]);

  const applies = link.data && forThisEvent ? link.data : null;
  return {
    promo:
      applies?.overridePrice != null
        ? { code: applies.code, price: applies.overridePrice, ticketType: applies.ticketType }
        : null,
    checking: link.isLoading,
    courtesyCode: applies && applies.overridePrice === null ? applies.code : null,
  };
}
