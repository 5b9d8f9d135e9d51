import type { EventView } from '@ticketing/proto';

/** `remaining` is null when the event has no maximum: no count is shown then. */
export const isSoldOut = (event: Pick<EventView, 'remaining'>) => event.remaining === 0;

export const remainingLabel = (remaining: number) =>
  remaining === 1 ? '1 vaga restante' : `${remaining} vagas restantes`;
