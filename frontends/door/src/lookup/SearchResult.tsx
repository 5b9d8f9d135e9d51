import type { DoorSearchHit } from '@ticketing/proto';
import { Badge, Button, useResetTicket } from '@ticketing/shared';
import { searchKey, ticketState } from './search.ts';

interface SearchResultProps {
  eventId: string;
  /** The door's session: the guest's `usedAt` is theirs in it, and a reset lets them in to it again. */
  sessionId: string;
  hit: DoorSearchHit;
  /** Only administrators may let a used ticket in again. */
  mayReset: boolean;
  onAdmit(ticketId: string): void;
}

/** One guest found: who, their ticket's type, their order and where they stand; admitted from here by their ticket's id. */
export function SearchResult({ eventId, sessionId, hit, mayReset, onAdmit }: SearchResultProps) {
  const reset = useResetTicket(hit.orderId, {
    errorTitle: 'Erro ao resetar ticket',
    refresh: searchKey(eventId),
    sessionId,
  });
  const state = ticketState(hit);
  const waiting = hit.status === 'valid' && !hit.usedAt;

  return (
    <li className="lookup-result">
      <div className="lookup-result__head">
        <h3 className="lookup-result__name">{hit.holderName}</h3>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      <dl className="lookup-result__facts">
        {hit.ticketType && (
          <div>
            <dt>Tipo</dt>
            <dd>
              {hit.ticketType.name}
              {hit.ticketType.requiresDocument && ' · exige documento'}
            </dd>
          </div>
        )}
        {hit.cpf && (
          <div>
            <dt>CPF</dt>
            <dd>{hit.cpf}</dd>
          </div>
        )}
        <div>
          <dt>E-mail</dt>
          <dd>{hit.holderEmail}</dd>
        </div>
        <div>
          <dt>Pedido</dt>
          <dd>nº {hit.orderNumber}</dd>
        </div>
      </dl>
      <div className="lookup-result__actions">
        {waiting && (
          <Button onClick={() => onAdmit(hit.ticketId)} aria-label={`Admitir ${hit.holderName}`}>
            Admitir
          </Button>
        )}
        {mayReset && hit.status === 'valid' && hit.usedAt && (
          <Button variant="destructive" loading={reset.isPending} onClick={() => reset.mutate()}>
            Resetar Ingresso
          </Button>
        )}
      </div>
    </li>
  );
}
