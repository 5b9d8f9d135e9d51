import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorTitles, isApiError, toast, toastError } from '@ticketing/shared';
import type { OrderAnswer, PaymentMethod } from './types.ts';

/** A key the server accepts ([\w.:-], up to 100), random even where `crypto.randomUUID` is unavailable (http). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `checkout-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * POST /api/orders. Each payment method gets one Idempotency-Key for the life of the dialog, so a repeated click
 * or a retry after a lost answer is the same order. Once the server has answered with a refusal, that attempt is
 * over and the next one gets a fresh key.
 */
export function useCreateOrder(eventId: string, promoCode: string | undefined) {
  const queryClient = useQueryClient();
  const keys = useRef(new Map<PaymentMethod, string>());

  function keyFor(method: PaymentMethod) {
    const key = keys.current.get(method) ?? newIdempotencyKey();
    keys.current.set(method, key);
    return key;
  }

  return useMutation({
    mutationFn: (method: PaymentMethod) =>
      api<OrderAnswer>('/orders', {
        method: 'POST',
        body: { eventId, paymentMethod: method, ...(promoCode ? { promoCode } : {}) },
        headers: { 'Idempotency-Key': keyFor(method) },
      }),
    onSuccess: () =>
      toast({ title: 'Pedido criado!', description: 'Complete o pagamento para confirmar seu ingresso.' }),
    onError: (error, method) => {
      if (isApiError(error)) keys.current.delete(method);
      // Sold out or no longer on sale: the page shows the event as it now is.
      if (isApiError(error, 409)) void queryClient.invalidateQueries({ queryKey: ['events'] });
      toastError(errorTitles.payment, error);
    },
  });
}
