import type { MouseEvent } from 'react';
import type { EventView } from '@ticketing/proto';
import { Button } from '@ticketing/shared';
import { isSoldOut } from '../events/availability.ts';
import { closedTypesLabel } from '../events/ticket-types.ts';
import { preloadCheckout } from '../checkout/Checkout.tsx';
import { LOGIN_PROMPT_ID, LoginPrompt } from './LoginPrompt.tsx';

interface BuyButtonProps {
  event: EventView;
  onBuy(event: MouseEvent<HTMLButtonElement>): void;
  /** The price is not known yet (a promotional code is being checked). */
  waiting?: boolean;
  block?: boolean;
}

/**
 * Buys tickets; disabled, and saying why, when the event is sold out or no longer on sale (the catalog's `onSale`),
 * or when none of its ticket types can be bought now. By itself it opens the login prompt, which works before the
 * page's code has arrived; `onBuy` opens the checkout instead for someone signed in.
 */
export function BuyButton({ event, onBuy, waiting = false, block = true }: BuyButtonProps) {
  if (isSoldOut(event)) {
    return (
      <Button variant="accent" size="lg" block={block} disabled>
        Evento Esgotado
      </Button>
    );
  }
  if (!event.onSale) {
    return (
      <Button variant="accent" size="lg" block={block} disabled>
        Evento encerrado
      </Button>
    );
  }
  const closed = closedTypesLabel(event);
  if (closed) {
    return (
      <Button variant="accent" size="lg" block={block} disabled>
        {closed}
      </Button>
    );
  }
  return (
    <>
      <Button
        variant="accent"
        size="lg"
        block={block}
        loading={waiting}
        popoverTarget={LOGIN_PROMPT_ID}
        onClick={onBuy}
        onPointerEnter={preloadCheckout}
        onFocus={preloadCheckout}
      >
        Comprar ingresso
      </Button>
      <LoginPrompt />
    </>
  );
}
