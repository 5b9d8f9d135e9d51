import type { EventView } from '@ticketing/proto';
import { Button, useHydrated } from '@ticketing/shared';
import { isSoldOut } from '../events/availability.ts';
import { closedTypesLabel } from '../events/ticket-types.ts';
import { preloadCheckout } from '../checkout/Checkout.tsx';

interface BuyButtonProps {
  event: EventView;
  onBuy(): void;
  /** The price is not known yet (a promotional code is being checked). */
  waiting?: boolean;
  block?: boolean;
}

/**
 * Buys tickets; disabled, and saying why, when the event is sold out or no longer on sale (the catalog's `onSale`),
 * or when none of its ticket types can be bought now.
 * A server-rendered page shows it disabled until its code has taken over: a click before then would do nothing.
 */
export function BuyButton({ event, onBuy, waiting = false, block = true }: BuyButtonProps) {
  const hydrated = useHydrated();
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
    <Button
      variant="accent"
      size="lg"
      block={block}
      loading={waiting}
      disabled={!hydrated}
      onClick={onBuy}
      onPointerEnter={preloadCheckout}
      onFocus={preloadCheckout}
    >
      Comprar ingresso
    </Button>
  );
}
