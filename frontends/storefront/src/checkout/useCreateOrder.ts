import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOrder } from '@ticketing/proto';
import { api, errorTitles, isApiError, toast, toastError } from '@ticketing/shared';
import type { OrderAnswer, PaymentMethod } from './types.ts';

/**
 * What the buyer confirms: how to pay, the tickets (none for an event whose types the catalog does not list), and, when
 * chosen, the company, the card's installments and the coupon.
 */
export type OrderRequest = { method: PaymentMethod } & Pick<
  CreateOrder,
  'items' | 'company' | 'installments' | 'couponCode'
>;

/** A key the server accepts ([\w.:-], up to 100), random even where `crypto.randomUUID` is unavailable (http). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `checkout-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * POST /api/orders. Each request (payment method and tickets) gets one Idempotency-Key for the life of the dialog, so
 * a repeated click or a retry after a lost answer is the same order, and changed tickets are a new one. Once the
 * server has answered with a refusal, that attempt is over and the next one gets a fresh key.
 */
export function useCreateOrder(eventId: string, promoCode: string | undefined) {
  const queryClient = useQueryClient();
  const keys = useRef(new Map<string, string>());

  function keyFor(request: OrderRequest) {
    const attempt = JSON.stringify(request);
    const key = keys.current.get(attempt) ?? newIdempotencyKey();
    keys.current.set(attempt, key);
    return key;
  }

  return useMutation({
    mutationFn: (request: OrderRequest) => {
      const { method, ...order } = request;
      return api<OrderAnswer>('/orders', {
        method: 'POST',
        // What was not chosen is left out (JSON drops the undefined).
        body: { eventId, paymentMethod: method, ...order, promoCode },
        headers: { 'Idempotency-Key': keyFor(request) },
      });
    },
    onSuccess: () =>
      toast({ title: 'Pedido criado!', description: 'Complete o pagamento para confirmar seu ingresso.' }),
    onError: (error, request) => {
      if (isApiError(error)) keys.current.delete(JSON.stringify(request));
      // Sold out or no longer on sale: the page shows the event as it now is.
      if (isApiError(error, 409)) void queryClient.invalidateQueries({ queryKey: ['events'] });
      toastError(errorTitles.payment, error);
    },
  });
}
